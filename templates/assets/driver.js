// wheelarch: re-judges a GPU page's recommendation for the visitor's driver
// and Python.
// It computes nothing the feed does not publish: each platform's "by_driver"
// table (api/v1/gpus.json, the same decision as `wheelarch query --driver`)
// lists, newest first, the lowest driver for each answer; the answer for a
// driver is the first row whose floor it reaches.
var wheelarchDriver = (function () {
  "use strict";
  function parse(s) {
    var m = String(s).trim().match(/^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/);
    return m ? [+m[1], +(m[2] || 0), +(m[3] || 0)] : null;
  }
  function atLeast(a, b) {
    for (var i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
    return true;
  }
  // The row of `table` for driver text `s`: a row, null (older than every
  // floor), or undefined (not a driver version).
  function pick(table, s) {
    var d = parse(s);
    if (!d) return undefined;
    for (var i = 0; i < table.length; i++) {
      var f = parse(table[i].min_driver);
      if (f && atLeast(d, f)) return table[i];
    }
    return null;
  }
  return { parse: parse, pick: pick };
}());

// The page's own answers follow the visitor's driver and Python: each
// platform's headline and command are replaced by the row for that driver
// (a driver too old for every build says so), and a Python the answer has
// no wheel for moves to the next row (a lower floor) that has one, or says
// which Pythons it has wheels for.  Cleared, the page's answer comes back.
(function () {
  "use strict";
  var form = document.getElementById("driverbox");
  var input = document.getElementById("driver");
  var pySel = document.getElementById("python");
  var out = document.getElementById("driver-answer");
  var dataEl = document.getElementById("drivers");
  if (!form || !input || !out || !dataEl) return;
  var tables = JSON.parse(dataEl.textContent);
  var blocks = [];
  Array.prototype.forEach.call(document.querySelectorAll(".platform[data-platform]"), function (div) {
    var hl = div.querySelector("p.headline");
    if (!hl) return;
    var pre = div.querySelector("pre.answer-cmd");
    var pv = div.querySelector("p.pyvers");
    var extra = div.querySelectorAll(".answer-extra");
    var pypi = div.querySelector("p.pypi[data-min-driver]");
    if (pypi) {
      var note = document.createElement("span");
      note.className = "pypi-driver";
      note.hidden = true;
      pypi.appendChild(note);
    }
    blocks.push({ platform: div.getAttribute("data-platform"), hl: hl, pre: pre, pv: pv, extra: extra,
                  pypi: pypi, pypiFloor: pypi ? pypi.getAttribute("data-min-driver") : null,
                  html: hl.innerHTML, code: pre ? pre.textContent : "", pvText: pv ? pv.textContent : null });
  });
  function verdict(cls, text) {
    var s = document.createElement("span");
    s.className = "v v-" + cls;
    s.textContent = text;
    return s;
  }
  function words(list) {
    var plain = list.filter(function (v) { return !/t$/.test(v); });
    var t = plain.length > 1 ? plain[0] + " to " + plain[plain.length - 1] : (plain[0] || "");
    var ft = list.filter(function (v) { return /t$/.test(v); });
    return t + (ft.length ? " (free-threaded: " + ft.join(", ") + ")" : "");
  }
  function has(row, py) {
    return !py || !row.python_versions || row.python_versions.indexOf(py) >= 0;
  }
  function extras(b, on) {
    Array.prototype.forEach.call(b.extra, function (e) { e.hidden = !on; });
  }
  function restore(b) {
    extras(b, true);
    b.hl.innerHTML = b.html;
    if (b.pre) { b.pre.hidden = false; b.pre.firstChild.textContent = b.code; }
    if (b.pv) { b.pv.hidden = false; b.pv.textContent = b.pvText; }
  }
  function show(b, parts, row) {
    extras(b, false); /* they speak of the page's own answer */
    b.hl.textContent = "";
    parts.forEach(function (x) { b.hl.appendChild(typeof x === "string" ? document.createTextNode(x) : x); });
    if (b.pre) {
      b.pre.hidden = !row;
      if (row) b.pre.firstChild.textContent = row.commands.pip + "\n" + row.commands.uv;
    }
    if (b.pv) {
      b.pv.hidden = !(row && row.python_versions);
      if (row && row.python_versions) b.pv.textContent = "torch " + row.pin + " has wheels for Python " + words(row.python_versions) + ".";
    }
  }
  function update() {
    var drv = input.value.trim(), py = pySel ? pySel.value : "";
    var bad = false;
    blocks.forEach(function (b) {
      if (b.pypi) {
        /* plain pip install: its build's own floor against this driver */
        var d = wheelarchDriver.parse(drv), f = wheelarchDriver.parse(b.pypiFloor);
        var note = b.pypi.lastChild;
        var low = d && f && !wheelarchDriver.pick([{ min_driver: b.pypiFloor }], drv);
        note.hidden = !low;
        note.textContent = low ? " With driver " + drv + " it does not load: it needs " + b.pypiFloor + " or newer." : "";
      }
      var table = tables[b.platform];
      if ((!drv && !py) || !table) { restore(b); return; }
      var at = 0;
      if (drv) {
        var row = wheelarchDriver.pick(table, drv);
        if (row === undefined) { bad = true; restore(b); return; }
        if (row === null) {
          show(b, [verdict("unsupported", "✗ no"), " No build in the data loads with driver " + drv +
                   " on this platform: update it to " + table[table.length - 1].min_driver +
                   " or newer (the table below gives each build's floor)."], null);
          return;
        }
        at = table.indexOf(row);
      }
      var first = table[at], pick = null;
      for (var i = at; i < table.length && !pick; i++) if (has(table[i], py)) pick = table[i];
      var given = (drv ? "driver " + drv : "") + (drv && py ? " and " : "") + (py ? "Python " + py : "");
      if (!pick) {
        show(b, [verdict("unsupported", "✗ no"), " torch " + first.pin + " has no wheel for Python " + py +
                 (first.python_versions ? "; it has wheels for Python " + words(first.python_versions) +
                  " (get one with uv venv --python " + first.python_versions.filter(function (v) { return !/t$/.test(v); }).pop() + ")" : "") +
                 ". No build in the table below that loads with " + (drv ? "this driver" : "any driver") +
                 " has one; wheelarch query --python " + py + " says what does."], null);
        return;
      }
      var strong = document.createElement("strong");
      strong.textContent = pick.index;
      show(b, [verdict(pick.verdict, (pick.symbol || "") + " " + pick.label), " With " + given + ": use the ", strong,
               " index, torch " + pick.pin + (pick !== first ? " (torch " + first.pin + " has no wheel for Python " + py + ")" : "") +
               "; it needs NVIDIA driver " + pick.min_driver + " or newer."], pick);
    });
    out.textContent = bad ? "Type a driver version such as 570.86.15." :
      drv || py ? "The answers below are for " + (drv ? "driver " + drv : "any driver") + " and " + (py ? "Python " + py : "any Python") + "." : "";
  }
  form.hidden = false;
  input.addEventListener("input", update);
  if (pySel) pySel.addEventListener("change", update);
}());
