// wheelarch: a GPU page's script (after prefs.js, decide.js and copy.js):
// the visitor's system (platform, driver, Python, remembered across pages)
// and the page's one answer for it.  Without the script the page shows
// every platform's answer for any driver and says so.
//
// Each platform's answer for the driver and Python set is one object
// (wheelarchDecide.decide, from the device's feed file); the heading, the
// headline, the command, the scope line under it, the grid's star, the
// driver table's marked row and the plain-pip line are all drawn from
// it.  With nothing set, the page's own (server-written) answer stands.
(function () {
  "use strict";
  var D = window.wheelarchDecide, P = window.wheelarchPrefs;
  var form = document.getElementById("driverbox");
  var input = document.getElementById("driver");
  var pySel = document.getElementById("python");
  var out = document.getElementById("driver-answer");
  var divs = document.querySelectorAll(".platform[data-platform]");
  if (!D || !form || !out || !divs.length || !form.getAttribute("data-src")) return;
  var NAMES = { "linux-x86_64": "Linux x86_64", "linux-aarch64": "Linux aarch64", "windows-x86_64": "Windows x86_64", "windows-arm64": "Windows on Arm" };
  var VERDICT = { "native": ["n", "✓"], "ptx-jit": ["j", "≈"], "partial": ["p", "◐"], "unsupported": ["x", "✗"] };

  // ---- what the page holds, per platform --------------------------------
  var blocks = Array.prototype.map.call(divs, function (div) {
    var q = function (s) { return div.querySelector(s); };
    var b = { div: div, platform: div.getAttribute("data-platform"), head: q("h2.ans-head"), hl: q("p.headline"),
              cmd: q(".answer-cmd"), scope: q("p.scope"), grid: q("table.rgrid"), drivers: q("table.drivers"),
              pypi: q("p.pypi .pypi-say"), extra: div.querySelectorAll(".answer-extra"), cut: q("p.gridcut"), self: q("details.self-build"), pl: null };
    b.saved = { head: b.head ? b.head.textContent : "", hl: b.hl ? b.hl.innerHTML : "",
                codes: b.cmd ? Array.prototype.map.call(b.cmd.querySelectorAll("code"), function (c) { return c.textContent; }) : [],
                scope: b.scope ? b.scope.innerHTML : null, pypi: b.pypi ? b.pypi.innerHTML : null,
                grid: b.grid ? b.grid.innerHTML : null };
    return b;
  });
  var name = function (p) { return NAMES[p] || p; };

  // ---- the grid's star ---------------------------------------------------
  // The star on the answer's cell (the grid is the page's own again first:
  // rows and columns added for another answer go).  The cell judges the
  // answer's own build: a pin to an older patch (torch==1.3.0) that a later
  // patch's cell, the newest, says nothing of.
  function starAt(b, ans) {
    var g = b.grid;
    if (!g) return;
    g.innerHTML = b.saved.grid;
    cutNote(b, "");
    Array.prototype.forEach.call(g.querySelectorAll("td.rec"), function (td) {
      td.classList.remove("rec");
      var m = td.querySelector(".rec-mark");
      if (m) td.removeChild(m);
    });
    if (!ans || !ans.row) return;
    var release = ans.release, variant = ans.index, added = false;
    var heads = Array.prototype.map.call(g.querySelectorAll("thead th"), function (th) { return th.textContent; });
    var col = heads.indexOf(variant);
    if (col < 1 && addColumn(b, variant)) {
      heads.push(variant);
      col = heads.length - 1;
      added = true;
    }
    if (col < 1) return;
    var row = Array.prototype.filter.call(g.querySelectorAll("tbody tr"), function (tr) {
      var th = tr.querySelector("th");
      return th && th.textContent === release;
    })[0];
    if (!row && (row = addRow(b, release, heads))) added = true;
    if (!row) return;
    var td = row.children[col];
    if (!td) return;
    var x = VERDICT[ans.verdict];
    if (x) { td.className = "c-" + x[0]; td.textContent = x[1]; }
    td.classList.add("rec");
    if (added) cutNote(b, " Added for this answer: torch " + release + ", " + variant + ".");
    var mark = document.createElement("span");
    mark.className = "rec-mark";
    mark.textContent = "★";
    var sr = document.createElement("span");
    sr.className = "sr";
    sr.textContent = " recommended";
    mark.appendChild(sr);
    td.appendChild(mark);
  }
  // The line under a cut grid says what the script added to it.
  function cutNote(b, text) {
    if (!b.cut) return;
    var n = b.cut.querySelector("span.added");
    if (!n && text) {
      n = document.createElement("span");
      n.className = "added";
      b.cut.appendChild(n);
    }
    if (n) n.textContent = text;
  }
  // A variant the page's grid has no column for (none of the releases it
  // shows has it), from the feed's whole grid, as its last column.
  function cell(v, variant) {
    var td = document.createElement("td"), x = v && Object.prototype.hasOwnProperty.call(v, variant) ? VERDICT[v[variant]] : null;
    if (x) { td.className = "c-" + x[0]; td.textContent = x[1]; }
    return td;
  }
  function addColumn(b, variant) {
    var vs = b.pl && b.pl.grid && b.pl.grid.verdicts;
    if (!vs) return false;
    var th = document.createElement("th");
    th.scope = "col";
    th.textContent = variant;
    b.grid.querySelector("thead tr").appendChild(th);
    Array.prototype.forEach.call(b.grid.querySelectorAll("tbody tr"), function (tr) {
      var rh = tr.querySelector("th");
      if (tr.classList.contains("gap")) { tr.firstChild.colSpan += 1; return; }
      tr.appendChild(cell(rh && vs[rh.textContent], variant));
    });
    return true;
  }
  // A release the page's grid leaves out, from the feed's whole grid, below
  // a "releases left out" line.
  function addRow(b, release, heads) {
    var v = b.grid && b.pl && b.pl.grid && b.pl.grid.verdicts && b.pl.grid.verdicts[release];
    if (!v) return null;
    var body = b.grid.querySelector("tbody");
    if (!body.querySelector("tr.gap")) {
      var gap = document.createElement("tr"), gtd = document.createElement("td");
      gap.className = "gap";
      gtd.colSpan = heads.length;
      gtd.textContent = "⋮ releases left out";
      gap.appendChild(gtd);
      body.appendChild(gap);
    }
    var tr = document.createElement("tr"), th = document.createElement("th");
    th.scope = "row";
    th.textContent = release;
    tr.appendChild(th);
    tr.setAttribute("data-added", "");
    heads.slice(1).forEach(function (variant) { tr.appendChild(cell(v, variant)); });
    body.appendChild(tr);
    return tr;
  }

  // ---- one platform drawn from its answer -------------------------------
  function draw(b, ans) {
    // the page's own answer, or none on this platform: the page's words
    var base = ans.kind === "base" || ans.kind === "none";
    var mine = base && (!ans.given.driver || ans.badDriver) && !ans.given.python;
    Array.prototype.forEach.call(b.extra, function (e) { e.hidden = !base; }); /* they speak of the page's own */
    if (b.head) {
      b.head.textContent = ans.kind === "old-driver" ? "No build for driver " + ans.given.driver + " on " + name(b.platform)
        : ans.kind === "no-python" ? "No torch for Python " + ans.given.python + " on " + name(b.platform)
        : base ? b.saved.head : "torch " + ans.pinText + " on " + name(b.platform);
    }
    if (b.hl) {
      if (base) b.hl.innerHTML = b.saved.hl;
      else {
        b.hl.textContent = "";
        D.headline(ans).forEach(function (x) { b.hl.appendChild(typeof x === "string" ? document.createTextNode(x) : x); });
      }
    }
    // no build for the Python typed: the other ways forward, opened
    if (b.self) b.self.open = ans.kind === "no-python";
    if (b.cmd) {
      var codes = b.cmd.querySelectorAll("code");
      var lines = base ? b.saved.codes : ans.commands ? [ans.commands.pip, ans.commands.uv] : null;
      b.cmd.hidden = !lines;
      if (lines) Array.prototype.forEach.call(codes, function (c, i) {
        if (c.textContent === (lines[i] || "")) return;
        c.textContent = lines[i] || "";
        if (window.wheelarchCopy) window.wheelarchCopy.tokens(c);
      });
    }
    if (b.scope) {
      var s = mine ? null : D.scope(ans);
      b.scope.hidden = !mine && !s;
      if (mine) b.scope.innerHTML = b.saved.scope;
      else if (s) b.scope.textContent = s;
    }
    if (b.grid) {
      if (base) { /* the page's own grid, its star as written */
        b.grid.innerHTML = b.saved.grid;
        cutNote(b, "");
      } else {
        starAt(b, ans);
      }
    }
    if (b.drivers) {
      Array.prototype.forEach.call(b.drivers.querySelectorAll("tbody tr"), function (tr, i) {
        var r = b.pl && b.pl.table ? b.pl.table[i] : null;
        var here = !!(r && ans.row && r.index === ans.index && r.pin === ans.pin);
        tr.classList.toggle("here", here);
        if (here) tr.setAttribute("aria-current", "true");
        else tr.removeAttribute("aria-current");
      });
    }
    if (b.pypi) {
      var p = b.pl ? D.pypi(b.pl.pypi, ans) : null;
      if (!p || !p.text) b.pypi.innerHTML = b.saved.pypi;
      else {
        b.pypi.textContent = "";
        var v = document.createElement("span");
        v.className = "v v-" + (p.runs ? "native" : "unsupported");
        v.textContent = p.runs ? "✓ runs" : "✗ no";
        b.pypi.appendChild(v);
        b.pypi.appendChild(document.createTextNode(" " + p.text));
      }
    }
    b.div.setAttribute("data-answer", ans.row ? ans.release + " " + ans.index : ans.kind);
  }

  // ---- the visitor's system ----------------------------------------------
  var fs = null, plat = "all";
  function showPlatform(p) {
    plat = p;
    blocks.forEach(function (b) { b.div.hidden = p !== "all" && b.platform !== p; });
  }
  var here = blocks.map(function (b) { return b.platform; });
  if (blocks.length > 1) {
    fs = document.createElement("fieldset");
    fs.className = "platpick";
    var lg = document.createElement("legend");
    lg.textContent = "Platform";
    fs.appendChild(lg);
    here.concat(["all"]).forEach(function (p) {
      var l = document.createElement("label"), r = document.createElement("input");
      r.type = "radio";
      r.name = "platpick";
      r.value = p;
      l.appendChild(r);
      l.appendChild(document.createTextNode(" " + (p === "all" ? "All" : name(p))));
      fs.appendChild(l);
    });
    form.insertBefore(fs, form.querySelector("div, p"));
  }
  // The platform: the one picked before, else the browser's own; a GPU with
  // answers on one platform only opens on it (GB10: Arm hosts).
  var answered = blocks.filter(function (b) { return b.cmd; }).map(function (b) { return b.platform; });
  var want = P ? P.platform() : "", moved = false;
  if (answered.indexOf(want) >= 0 || here.indexOf(want) >= 0 && !answered.length) plat = want;
  else { plat = answered[0] || here[0]; moved = !!want && plat !== want; }
  if (fs) {
    Array.prototype.forEach.call(fs.querySelectorAll("input"), function (r) { r.checked = r.value === plat; });
    fs.addEventListener("change", function (e) {
      moved = false;
      showPlatform(e.target.value);
      if (P) P.set("platform", e.target.value === "all" ? "" : e.target.value);
      update();
    });
  }
  showPlatform(plat);

  var loaded = false;
  function update() {
    var drv = input ? input.value.trim() : "", py = pySel ? pySel.value : "";
    if (P) { if (input) P.set("driver", drv); P.set("python", py); }
    if (!loaded) return; /* update runs again when the tables are in */
    var bad = false, none = true, beyond = null;
    blocks.forEach(function (b) {
      var ans = D.decide(b.pl, drv, py);
      bad = bad || !!ans.badDriver;
      beyond = beyond || ans.beyondBranch || null;
      if (!b.div.hidden && ans.kind !== "none") none = false;
      draw(b, ans);
    });
    var g = (drv ? "driver " + drv : "any driver") + " and " + (py ? "Python " + py : "any Python");
    out.textContent = (moved ? "This page has no answer for " + name(want) + "; shown: " + name(plat) + ". " : "") +
      (none ? "No build in the data runs on this GPU on " + (plat === "all" ? "these platforms" : name(plat)) + "." :
       bad ? "Type a driver version such as 570.86.15; the answer above is for any driver." :
       beyond ? "NVIDIA's drivers for this GPU end at " + beyond.branch + " (CUDA " + beyond.cuda + "): driver " + drv + " is of a later branch, which does not run it. The answer above is for its last branch" + (py ? " and Python " + py : "") + "." :
       drv || py ? "The answer above is for " + g + "." : "The answer above is for any driver from its floor and any Python it has wheels for.");
  }
  form.hidden = false;
  if (input) input.addEventListener("input", update);
  if (pySel) pySel.addEventListener("change", update);
  if (P) {
    if (input) input.value = P.get("driver");
    var rp = P.get("python");
    if (pySel && Array.prototype.some.call(pySel.options, function (o) { return o.value === rp; })) pySel.value = rp;
  }
  var xhr = new XMLHttpRequest();
  xhr.open("GET", form.getAttribute("data-src"));
  xhr.responseType = "json";
  xhr.onload = function () {
    var doc = xhr.status === 200 || xhr.status === 0 ? xhr.response : null;
    if (!doc || !doc.platforms) { out.textContent = "The driver tables did not load; the answer above is for any driver."; return; }
    blocks.forEach(function (b) {
      var x = doc.platforms[b.platform];
      b.pl = D.platform(x);
      b.pl.grid = x && x.grid;
    });
    loaded = true;
    form.setAttribute("data-loaded", "");
    update();
  };
  xhr.onerror = function () { out.textContent = "The driver tables did not load; the answer above is for any driver."; };
  xhr.send();
}());
