// wheelarch: the one answer of a page for the visitor's driver and Python,
// shared by the GPU pages (gpu.js) and the home filter (search.js).  It
// computes nothing the feed does not publish: a platform of a device's feed
// file (api/v1/gpu/<device>.json: its answer, its "by_driver" table, its
// per-Python tables and their commands) holds, newest first, the lowest
// driver for each answer; the answer for a driver is the first row whose
// floor it reaches, the same decision as `wheelarch query --driver D
// --python P`.  decide() returns one object; every part of a page that
// shows an answer (headline, command, grid star, heading, plain-pip line,
// driver table) is drawn from it, so none can say another thing.
var wheelarchDecide = (function () {
  "use strict";
  function parse(s) {
    var m = String(s).trim().match(/^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/);
    return m ? [+m[1], +(m[2] || 0), +(m[3] || 0)] : null;
  }
  // Typed: a branch alone ("580") is its newest driver, as query reads it.
  function parseTyped(s) {
    var d = parse(s);
    if (d && /^\s*\d+\s*$/.test(String(s))) d[1] = d[2] = 99999;
    return d;
  }
  function atLeast(a, b) {
    for (var i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
    return true;
  }
  // The row of `table` for driver text `s`: a row, null (older than every
  // floor), or undefined (not a driver version).  A row without a floor (a
  // ROCm build: no NVIDIA driver in it) loads with any driver.
  function pick(table, s) {
    var d = parseTyped(s);
    if (!d) return undefined;
    for (var i = 0; i < table.length; i++) {
      var f = table[i].min_driver ? parse(table[i].min_driver) : null;
      if (!table[i].min_driver || f && atLeast(d, f)) return table[i];
    }
    return null;
  }
  // Whether driver text s is below floor f ("" or null: no floor).
  function below(s, f) {
    var d = parseTyped(s), x = f ? parse(f) : null;
    return !!(d && x && !atLeast(d, x));
  }
  var own = function (o, k) { return Object.prototype.hasOwnProperty.call(o, k); };
  // "2.8.*" -> "2.8", "1.3.0" stays; a pin's release: "1.3.0" -> "1.3"
  function pinText(pin) { return String(pin).replace(/\.\*$/, ""); }
  function releaseOf(pin) { var m = String(pin).match(/^\d+\.\d+/); return m ? m[0] : String(pin); }
  // Python versions in words: "3.10 to 3.14 (free-threaded: 3.14t)"
  function words(list) {
    var plain = list.filter(function (v) { return !/t$/.test(v); });
    var t = plain.length > 1 ? plain[0] + " to " + plain[plain.length - 1] : (plain[0] || "");
    var ft = list.filter(function (v) { return /t$/.test(v); });
    return t + (ft.length ? " (free-threaded: " + ft.join(", ") + ")" : "");
  }
  function has(row, py) {
    return !py || !row.python_versions || row.python_versions.indexOf(py) >= 0;
  }
  var LABELS = { "native": ["✓", "native"], "ptx-jit": ["≈", "PTX JIT"], "partial": ["◐", "partial"] };

  // A platform of a feed file, made ready once: its answer, its driver
  // table, its per-Python tables with their commands.
  function platform(x) {
    var a = x && x.answer;
    var base = a ? a.recommendation || a.fallback || null : null;
    return { answer: a || null, base: base, applies: !!(a && a.applies),
             table: a && a.applies && a.by_driver && a.by_driver.length ? a.by_driver : null,
             py: x && x.by_driver_python || {}, cmds: x && x.commands || {},
             pypi: a && a.pypi || null, release: a ? a.release : null,
             last_driver_branch: x && x.last_driver_branch || null };
  }
  function pyTable(pl, py) {
    var t = own(pl.py, py) ? pl.py[py] : undefined;
    if (typeof t === "string") t = own(pl.py, t) ? pl.py[t] : undefined;
    if (t === 0) return pl.table;
    if (!Array.isArray(t)) return null;
    return t.map(function (r) {
      var l = LABELS[r[4]] || ["", r[4]], k = r[3] + " " + r[2];
      return { min_driver: r[0], index: r[1], pin: r[2], release: releaseOf(r[2]), verdict: r[4],
               symbol: l[0], label: l[1], commands: own(pl.cmds, k) ? pl.cmds[k] : null };
    });
  }
  // An answer from a row (the page's own, a driver table's or a Python
  // table's): what every part of the page shows.
  function from(kind, row, extra) {
    var o = { kind: kind, row: row || null };
    if (row) {
      o.index = row.index;
      o.pin = row.pin;
      o.pinText = pinText(row.pin);
      o.release = row.release || releaseOf(row.pin);
      o.verdict = row.verdict;
      o.symbol = row.symbol || (LABELS[row.verdict] || [""])[0];
      o.label = row.label || (LABELS[row.verdict] || ["", row.verdict])[1];
      o.min_driver = row.min_driver || null;
      o.commands = row.commands && row.commands.pip && row.commands.uv ? row.commands : null;
      o.python_versions = row.python_versions || null;
    }
    for (var k in extra) if (own(extra, k)) o[k] = extra[k];
    return o;
  }

  // The answer for driver text drv and Python py ("" for either: any) on
  // platform pl (from platform()).  kind: "base" (the page's own answer),
  // "row" (another row of the tables), "old-driver" (no build loads with
  // drv: `needs` is the row to update for), "no-python" (no build with
  // code has a wheel for py), "none" (no answer on this platform); with
  // badDriver set when drv is not a version (the answer is for any driver).
  function decide(pl, drv, py) {
    drv = String(drv || "").trim();
    py = py || "";
    var given = { driver: drv, python: py };
    if (!pl || !pl.applies || !pl.base) return from("none", null, { given: given });
    var selfBuild = !!(pl.answer && pl.answer.build_from_source);
    var table = pl.table;
    // builds with no NVIDIA driver floor (ROCm): a driver set on another
    // page says nothing of them
    if (table && !table.some(function (r) { return r.min_driver; })) drv = given.driver = "";
    if (drv && !parseTyped(drv)) { /* not a version: the answer for any driver, said so */
      var any = decide(pl, "", py);
      any.badDriver = true;
      return any;
    }
    // a driver of a branch after the GPU's last does not run it: the answer
    // is its last branch's (the tables list no floor beyond it), said so
    var lb = pl.last_driver_branch;
    if (drv && lb && parseTyped(drv)[0] >= lb.dropped_in) {
      var last = decide(pl, "", py);
      last.beyondBranch = lb;
      last.given = given;
      return last;
    }
    if ((!drv && !py) || !table) {
      if (!py || has(pl.base, py)) return from("base", pl.base, { given: given });
    }
    var ptab = py ? pyTable(pl, py) : null;
    if (ptab) {
      // the rows with a wheel for this Python, at each driver floor
      var top = drv && table ? pick(table, drv) : table ? table[0] : pl.base;
      var row = drv ? pick(ptab, drv) : ptab[0] || null;
      if (!row) {
        if (ptab.length) return from("old-driver", null, { given: given, needs: ptab[ptab.length - 1] });
        var pv0 = (table ? table[0] : pl.base).python_versions;
        return from("no-python", null, { given: given, about: (table ? table[0] : pl.base), pythons: pv0 || null, selfBuild: selfBuild });
      }
      var skipped = top && top.pin !== row.pin && !has(top, py) ? top : null;
      if (!drv && row.pin === pl.base.pin && row.index === pl.base.index) return from("base", pl.base, { given: given });
      return from("row", row, { given: given, skipped: skipped });
    }
    if (!table) {
      var b = pl.base;
      return from("no-python", null, { given: given, about: b, pythons: b.python_versions || null, selfBuild: selfBuild });
    }
    var at = 0;
    if (drv) {
      var r = pick(table, drv);
      var pyAny = table.some(function (x) { return has(x, py); });
      // the table lists only builds with code for this GPU: what blocks
      // is the driver (docs/answers.md); the Python, when none has a
      // wheel for it, blocks first (below)
      if (r === null && pyAny) return from("old-driver", null, { given: given, needs: table[table.length - 1] });
      at = r === null ? 0 : table.indexOf(r);
    }
    var first = table[at], got = null;
    for (var i = at; i < table.length && !got; i++) if (has(table[i], py)) got = table[i];
    if (!got) return from("no-python", null, { given: given, about: first, pythons: first.python_versions || null, selfBuild: selfBuild });
    return from("row", got, { given: given, skipped: got !== first ? first : null });
  }

  // What plain `pip install torch` (PyPI's build) does with the answer's
  // driver and Python: {runs, text} or null when the feed says nothing.
  // p: the feed's pypi object (runs judged for the GPU alone); ans: the
  // answer (a command of its own to point to, or none).
  function pypi(p, ans) {
    var given = ans.given, instead = ans.commands ? " Use the command above instead." : "";
    if (!p) return null;
    // no code for the GPU: the page's own words, or the feed's reason
    if (!p.runs) return { runs: false, text: ans.kind === "base" ? null : p.reason + "." + instead };
    if (given.driver && below(given.driver, p.min_driver))
      return { runs: false, text: "with NVIDIA driver " + given.driver + " it does not load: its CUDA needs driver " + p.min_driver + " or newer." + instead };
    if (given.python && p.python_versions && p.python_versions.indexOf(given.python) < 0)
      return { runs: false, text: "torch " + p.release + " has no wheel for Python " + given.python + " (pip would pick an older release, which this page does not judge)." + instead };
    return { runs: true, text: null };
  }

  function given(g) {
    return (g.driver ? "driver " + g.driver : "") + (g.driver && g.python ? " and " : "") + (g.python ? "Python " + g.python : "");
  }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function verdict(cls, text) { return el("span", text, "v v-" + cls); }
  // The headline of an answer that is not the page's own, as nodes.
  function headline(ans) {
    var g = given(ans.given);
    if (ans.kind === "old-driver") {
      var n = ans.needs;
      return [verdict("driver-too-old", "⚠ driver too old"), (ans.given.python ? " With Python " + ans.given.python + ", no" : " No") +
              " build in the data loads with driver " + ans.given.driver + " on this platform: update it to " + n.min_driver +
              " or newer (torch " + pinText(n.pin) + " from " + n.index + " then runs)."];
    }
    if (ans.kind === "no-python") {
      var pv = ans.pythons, ab = ans.about;
      var plain = pv ? pv.filter(function (v) { return !/t$/.test(v); }) : [];
      var drvToo = ab && ans.given.driver && below(ans.given.driver, ab.min_driver);
      return [verdict("unsupported", "✗ no Python " + ans.given.python + " wheel"),
              " No torch release in the data with code for this GPU" + (ans.given.driver ? " that loads with driver " + ans.given.driver : "") +
              " has a wheel for Python " + ans.given.python + (ab && pv ? "; torch " + pinText(ab.pin) + " has wheels for Python " + words(pv) +
              (plain.length ? " (make one with uv venv --python " + plain[plain.length - 1] + ")" : "") +
              (drvToo ? " and needs NVIDIA driver " + ab.min_driver + " or newer" : "") : "") + "." +
              (ans.selfBuild ? " Or build it yourself (below)." : "")];
    }
    if (ans.kind === "none") return [verdict("unsupported", "✗ no"), " No build in the data runs on this GPU on this platform."];
    var st = el("strong", ans.index);
    return [verdict(ans.verdict, (ans.symbol || "") + " " + ans.label), " With " + g + ": use the ", st,
            " index, torch " + ans.pinText + (ans.skipped ? " (torch " + pinText(ans.skipped.pin) + " has no wheel for Python " + ans.given.python + ")" : "") +
            (ans.min_driver ? "; it needs NVIDIA driver " + ans.min_driver + " or newer." : ".")];
  }
  // The scope line under the command: which driver and Python it is for.
  function scope(ans) {
    var g = given(ans.given);
    var pv = ans.python_versions;
    if (ans.kind === "row" || ans.kind === "base" && g)
      return "For " + g + (pv ? "; torch " + ans.pinText + " has wheels for Python " + words(pv) : "") + ".";
    return null;
  }
  // The commands of an answer as the page shows them: a block of <pre>s,
  // one line each (copy.js gives each its button).
  function commands(ans) {
    var box = el("div", null, "answer-cmd");
    if (!ans.commands) return null;
    [ans.commands.pip, ans.commands.uv].forEach(function (line) {
      var pre = el("pre"), code = el("code", line, "cmd");
      pre.appendChild(code);
      box.appendChild(pre);
    });
    return box;
  }
  return { parse: parse, parseTyped: parseTyped, pick: pick, platform: platform, decide: decide, pypi: pypi,
           headline: headline, scope: scope, commands: commands, words: words, pinText: pinText, releaseOf: releaseOf };
}());
