// wheelarch: a GPU page's script (after prefs.js and driver.js): the
// platform switch, and the answers re-judged for the visitor's driver and
// Python.  Without it the page shows every platform's answer for the
// newest driver.
// A GPU page shows one platform when the visitor has one (picked here, or
// the browser's own: prefs.js), with a switch to the others; without a
// script every platform shows.
(function () {
  "use strict";
  var blocks = document.querySelectorAll(".platform[data-platform]");
  var P = window.wheelarchPrefs;
  if (!P || blocks.length < 2) return;
  var names = { "linux-x86_64": "Linux x86_64", "linux-aarch64": "Linux aarch64", "windows-x86_64": "Windows" };
  var fs = document.createElement("fieldset");
  fs.className = "platpick";
  var lg = document.createElement("legend");
  lg.textContent = "Your system";
  fs.appendChild(lg);
  var have = {};
  function show(p) {
    Array.prototype.forEach.call(blocks, function (b) { b.hidden = p !== "all" && b.getAttribute("data-platform") !== p; });
  }
  ["all"].concat(Array.prototype.map.call(blocks, function (b) { return b.getAttribute("data-platform"); })).forEach(function (p) {
    have[p] = true;
    var l = document.createElement("label"), r = document.createElement("input");
    r.type = "radio";
    r.name = "platpick";
    r.value = p;
    l.appendChild(r);
    l.appendChild(document.createTextNode(" " + (names[p] || (p === "all" ? "All platforms" : p))));
    fs.appendChild(l);
  });
  var pick = P.platform();
  if (!have[pick]) pick = "all";
  fs.querySelector("input[value='" + pick + "']").checked = true;
  fs.addEventListener("change", function (e) {
    show(e.target.value);
    P.set("platform", e.target.value === "all" ? "" : e.target.value);
  });
  blocks[0].parentNode.insertBefore(fs, blocks[0].previousElementSibling && blocks[0].previousElementSibling.classList.contains("legend") ? blocks[0].previousElementSibling : blocks[0]);
  show(pick);
}());

// The page's own answers follow the visitor's driver and Python: each
// platform's headline and command are replaced by the row for that driver
// (a driver too old for every build says so), and a Python the answer has
// no wheel for moves to the next row (a lower floor) that has one, or says
// which Pythons it has wheels for.  Cleared, the page's answer comes back.
// The tables come from the device's feed file (api/v1/gpu/<device>.json);
// the driver and Python typed are remembered for the next GPU page.
(function () {
  "use strict";
  var form = document.getElementById("driverbox");
  var input = document.getElementById("driver");
  var pySel = document.getElementById("python");
  var out = document.getElementById("driver-answer");
  if (!form || !input || !out || !form.getAttribute("data-src")) return;
  var P = window.wheelarchPrefs;
  /* per platform: its by_driver rows; per platform and Python:
   * [[floor, index, pin, index URL, verdict]], or the name of a Python
   * with the same table, or 0 (the platform's own); per platform, the
   * commands of those rows by "<index URL> <pin>", as wheelarch wrote them
   * (a page never writes a command itself) */
  var tables = null, pyTables = {}, pyCommands = {};
  var LABELS = { "native": ["✓", "native"], "ptx-jit": ["≈", "PTX JIT"] };
  function pyTable(platform, py) {
    var all = pyTables[platform], t = all ? all[py] : undefined;
    if (typeof t === "string") t = all[t];
    if (t === 0) return tables[platform];
    if (!Array.isArray(t)) return null;
    var cmds = pyCommands[platform] || {};
    return t.map(function (r) {
      var l = LABELS[r[4]] || ["", r[4]];
      var k = r[3] + " " + r[2];
      return { min_driver: r[0], index: r[1], pin: r[2], verdict: r[4], symbol: l[0], label: l[1],
               commands: Object.prototype.hasOwnProperty.call(cmds, k) ? cmds[k] : null };
    });
  }
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
      var c = row && row.commands;
      b.pre.hidden = !(c && c.pip && c.uv);
      if (!b.pre.hidden) b.pre.firstChild.textContent = c.pip + "\n" + c.uv;
    }
    if (b.pv) {
      b.pv.hidden = !(row && row.python_versions);
      if (row && row.python_versions) b.pv.textContent = "torch " + row.pin + " has wheels for Python " + words(row.python_versions) + ".";
    }
  }
  function update() {
    var drv = input.value.trim(), py = pySel ? pySel.value : "";
    if (P) { P.set("driver", drv); P.set("python", py); }
    if (!tables) return; /* not loaded yet: update runs again when it is */
    var bad = false;
    blocks.forEach(function (b) {
      if (b.pypi) {
        /* plain pip install: its build's own floor against this driver */
        var d = wheelarchDriver.parseTyped(drv), f = wheelarchDriver.parse(b.pypiFloor);
        var note = b.pypi.lastChild;
        var low = d && f && !wheelarchDriver.pick([{ min_driver: b.pypiFloor }], drv);
        note.hidden = !low;
        note.textContent = low ? " With driver " + drv + " it does not load: it needs " + b.pypiFloor + " or newer." : "";
      }
      var table = tables[b.platform];
      if ((!drv && !py) || !table || !table.length) { restore(b); return; }
      var given = (drv ? "driver " + drv : "") + (drv && py ? " and " : "") + (py ? "Python " + py : "");
      var ptab = py ? pyTable(b.platform, py) : null;
      if (ptab) {
        /* the rows with a wheel for this Python, at each driver floor: the
         * same decision as wheelarch query --driver D --python P */
        var own = drv ? wheelarchDriver.pick(table, drv) : table[0];
        if (own === undefined) { bad = true; restore(b); return; }
        var row = drv ? wheelarchDriver.pick(ptab, drv) : ptab[0] || null;
        if (!row) {
          if (ptab.length) {
            show(b, [verdict("driver-too-old", "⚠ driver too old"), " With Python " + py + ", no build in the data loads with driver " + drv +
                     ": update it to " + ptab[ptab.length - 1].min_driver + " or newer (torch " + ptab[ptab.length - 1].pin +
                     " from " + ptab[ptab.length - 1].index + " then runs)."], null);
          } else {
            var pv0 = table[0].python_versions;
            show(b, [verdict("unsupported", "✗ no Python " + py + " wheel"), " No torch release in the data with code for this GPU has a wheel for Python " + py +
                     (pv0 ? "; torch " + table[0].pin + " has wheels for Python " + words(pv0) : "") + "."], null);
          }
          return;
        }
        var st = document.createElement("strong");
        st.textContent = row.index;
        show(b, [verdict(row.verdict, (row.symbol || "") + " " + row.label), " With " + given + ": use the ", st,
                 " index, torch " + row.pin + (own && own.pin !== row.pin && !has(own, py) ? " (torch " + own.pin + " has no wheel for Python " + py + ")" : "") +
                 "; it needs NVIDIA driver " + row.min_driver + " or newer."], row);
        if (b.pv && !row.python_versions) { b.pv.hidden = false; b.pv.textContent = "torch " + row.pin + " has wheels for Python " + py + "."; }
        return;
      }
      var at = 0;
      if (drv) {
        var row = wheelarchDriver.pick(table, drv);
        if (row === undefined) { bad = true; restore(b); return; }
        var pyAny = table.some(function (r) { return has(r, py); });
        if (row === null && pyAny) {
          /* the table lists only builds with code for this GPU: what
           * blocks is the driver (docs/answers.md); the Python, when none
           * has a wheel for it, blocks first (below) */
          show(b, [verdict("driver-too-old", "⚠ driver too old"), " No build in the data loads with driver " + drv +
                   " on this platform: update it to " + table[table.length - 1].min_driver +
                   " or newer (the table below gives each build's floor)."], null);
          return;
        }
        at = row === null ? 0 : table.indexOf(row);
      }
      var first = table[at], pick = null;
      for (var i = at; i < table.length && !pick; i++) if (has(table[i], py)) pick = table[i];
      if (!pick) {
        show(b, [verdict("unsupported", "✗ no Python " + py + " wheel"), " torch " + first.pin + " has no wheel for Python " + py +
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
  if (P) {
    input.value = P.get("driver");
    if (pySel && P.get("python")) pySel.value = P.get("python");
  }
  var xhr = new XMLHttpRequest();
  xhr.open("GET", form.getAttribute("data-src"));
  xhr.responseType = "json";
  xhr.onload = function () {
    var doc = xhr.status === 200 || xhr.status === 0 ? xhr.response : null;
    if (!doc || !doc.platforms) { out.textContent = "The driver tables did not load; the answers below are for the newest driver."; return; }
    tables = {};
    Object.keys(doc.platforms).forEach(function (p) {
      var x = doc.platforms[p], a = x.answer;
      if (a && a.applies && a.by_driver && a.by_driver.length) tables[p] = a.by_driver;
      if (x.by_driver_python) pyTables[p] = x.by_driver_python;
      if (x.commands) pyCommands[p] = x.commands;
    });
    form.setAttribute("data-loaded", "");
    update();
  };
  xhr.onerror = function () { out.textContent = "The driver tables did not load; the answers below are for the newest driver."; };
  xhr.send();
}());
