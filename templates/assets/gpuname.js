// wheelarch GPU resolver for the browser: the rules of src/gpuname.c (read
// its header comment), so the filter and `wheelarch query --gpu` agree.
// tests/site/test_gpuname_js.mjs runs tests/fixtures/gpu-names.tsv through
// both; a change to one without the other fails there.
//
// wheelarchGpuname.resolve(gpus, query, {typing}) with gpus = [{name, cc, amd, other}]
// (typing: the filter's text as it is typed; see resolveOne)
// (cc: "6.1" or "gfx1100"; other: other chips' capabilities, [] if none)
// returns {kind: "none"|"code"|"name"|"vague", decided, cc, gpu, formDiffers,
//          severalChips, matches: [{gpu, tier}], nbest, suggest: [gpu]}.
(function (root) {
  "use strict";
  var EXACT = 0, FORM = 1, PREFIX = 2, FUZZY = 3;
  var BRAND = ["nvidia", "geforce", "amd", "instinct", "ati"];
  var SERIES = ["gtx", "gt", "rtx", "tesla", "quadro", "jetson", "rx", "radeon", "ryzen"];
  var NOISE = ["pcie", "nvl", "oam", "nvgpu", "graphics", "gpu", "tm", "with", "design", "hgx",
               "device", "compute", "cap"];
  var FOREIGN = ["intel", "arc", "iris", "apple", "qualcomm", "adreno", "mali"];
  var FORMS = ["laptop", "mobile", "notebook", "maxq"];
  var LABELS = ["marketing name", "product name", "card series", "card model", "card sku", "name",
                "gpu", "device"];
  var MAX = 48;

  function isDigits(t) { return /^[0-9]+$/.test(t); }
  function startsWord(t) {
    return BRAND.concat(SERIES, NOISE, FORMS, ["hbm", "sxm", "max"]).some(function (w) {
      return w.length > t.length && w.indexOf(t) === 0;
    });
  }

  // What tools wrap around a name (see unwrap in gpuname.c).
  function unwrap(s) {
    s = s.replace(/^\s+/, "");
    var colon = s.indexOf(":");
    if (colon >= 0) {
      var low = s.toLowerCase();
      for (var i = 0; i < LABELS.length; i++) {
        if (low.indexOf(LABELS[i]) !== 0) continue;
        var p = LABELS[i].length;
        while (p < s.length && /[ 0-9#]/.test(s[p])) p++;
        if (p === colon) { s = s.slice(colon + 1); break; }
      }
    }
    return s.replace(/\(uuid[^)]*(\)|$)/ig, "").replace(/\(tm\)/ig, "").replace(/\(r\)/ig, "");
  }

  // typing: the text is still being typed (the filter): its last word,
  // still open, is left out when it starts a word the rules drop ("gef",
  // "lap"), is a number after another word ("H100 8"), or a memory size's
  // unit being typed ("80G").
  function tokenize(name, typing) {
    // raw tokens; touch: it starts where the one before ends
    var raw = [], touch = [], re = /[a-z]+|[0-9]+/g, m, end = -1;
    var text = unwrap(name).toLowerCase();
    while ((m = re.exec(text)) !== null && raw.length < 48) {
      touch.push(raw.length > 0 && m.index === end);
      raw.push(m[0].slice(0, 23));
      end = m.index + m[0].length;
    }
    var openEnd = end === text.length; // the last word is still being typed
    var k = { s: [], r: [], f: [], ignored: 0, vendor: 0, last: 0, foreign: false, glued: [] };
    var keptAt = -2;
    function addUnique(list, t) { if (list.indexOf(t) < 0) list.push(t); }
    for (var i = 0; i < raw.length; i++) {
      var t = raw[i], next = i + 1 < raw.length ? raw[i + 1] : "";
      if (BRAND.indexOf(t) >= 0) {
        k.ignored++;
        k.vendor = t === "nvidia" || t === "geforce" ? 1 : 2;
      } else if (FOREIGN.indexOf(t) >= 0) {
        k.ignored++;
        k.foreign = true;
      } else if (NOISE.indexOf(t) >= 0) {
        k.ignored++;
      } else if (isDigits(t) && (next === "gb" || next === "gib")) {
        k.ignored += 2;
        i++;
      } else if (t === "sxm" || t === "hbm") {
        k.ignored++;
        var after = i + 2 < raw.length ? raw[i + 2] : "";
        if (isDigits(next) && after !== "gb" && after !== "gib") {
          i++;
          if (i + 1 < raw.length && raw[i + 1] === "e") i++;
        }
      } else if (t === "max" && next === "q") {
        addUnique(k.f, "maxq");
        i++;
      } else if (FORMS.indexOf(t) >= 0) {
        addUnique(k.f, t);
      } else if (SERIES.indexOf(t) >= 0) {
        addUnique(k.r, t);
        if (t === "radeon" || t === "ryzen" || t === "rx") k.vendor = 2;
      } else if (k.s.length < 24) {
        k.glued.push(k.s.length > 0 && touch[i] && keptAt + 1 === i);
        keptAt = i;
        k.s.push(t);
        k.last = k.s.length - 1;
      }
    }
    // the last word is open and may still become a word the rules drop
    // (a word of its own: the "c" of "K40c" is not the start of "cap")
    var alone = !touch[raw.length - 1];
    k.openWord = openEnd && alone && k.s.length > 0 && keptAt === raw.length - 1 && startsWord(k.s[k.s.length - 1]);
    if (typing && openEnd && k.s.length && keptAt === raw.length - 1) {
      var last = k.s[k.s.length - 1], cut = 0;
      var unit = "gb".indexOf(last) === 0 || "gib".indexOf(last) === 0;
      if (unit && k.s.length >= 2 && k.glued[k.s.length - 1] && isDigits(k.s[k.s.length - 2])) cut = 2;
      else if (alone && (startsWord(last) || (isDigits(last) && k.s.length >= 2))) cut = 1;
      // a brand being typed ("g", "gefo", "am") names its vendor, as the
      // whole word would
      if (cut === 1) BRAND.forEach(function (w) {
        if (w.length > last.length && w.indexOf(last) === 0 && !k.vendor) k.vendor = w === "nvidia" || w === "geforce" ? 1 : 2;
      });
      k.s.length -= cut;
      k.glued.length -= cut;
      k.ignored += cut;
      k.last = k.s.length ? k.s.length - 1 : 0;
      k.dropped = cut > 0;
    }
    return k;
  }

  function oneEdit(a, b) {
    var la = a.length, lb = b.length;
    if (la > lb + 1 || lb > la + 1) return false;
    var i = 0;
    while (i < la && i < lb && a[i] === b[i]) i++;
    if (la === lb) {
      if (i === la) return true;
      if (a.slice(i + 1) === b.slice(i + 1)) return true;
      return i + 1 < la && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
    }
    return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
  }

  var M_NONE = -1, M_FUZZY = 0, M_PREFIX = 1, M_EQUAL = 2;
  function tokenMatch(q, n) {
    if (q === n) return M_EQUAL;
    if (isDigits(q) !== isDigits(n)) return M_NONE;
    if (n.indexOf(q) === 0) return M_PREFIX;
    if (q.length >= 3 && n.length >= 3 && oneEdit(q, n)) return M_FUZZY;
    return M_NONE;
  }

  function count(list, t) {
    var k = 0;
    for (var i = 0; i < list.length; i++) if (list[i] === t) k++;
    return k;
  }
  function sameSet(a, b) {
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (count(a, a[i]) !== count(b, a[i])) return false;
    return true;
  }
  // the name begins with the query's words: "MI300" starts "MI300X",
  // "610M" does not start "K610M"
  function startsWith(q, n) {
    if (n.s.length < q.s.length) return false;
    for (var i = 0; i < q.s.length; i++) if (q.s[i] !== n.s[i]) return false;
    return true;
  }
  function countEqual(q, n) {
    var k = 0;
    for (var i = 0; i < q.s.length; i++) if (n.s.indexOf(q.s[i]) >= 0) k++;
    return k;
  }

  function tierOf(q, n, out) {
    var worst = M_EQUAL;
    out.matched = 0;
    for (var i = 0; i < q.s.length; i++) {
      var best = M_NONE;
      for (var j = 0; j < n.s.length && best < M_EQUAL; j++) {
        var m = tokenMatch(q.s[i], n.s[j]);
        if (m === M_PREFIX && i + 1 < q.s.length && q.last !== i) m = M_NONE;
        if (m > best) best = m;
      }
      if (best === M_NONE) worst = M_NONE; else out.matched++;
      if (best < worst) worst = best;
    }
    if (worst === M_NONE) return -1;
    // words typed as one ("h100") stand side by side in the name
    for (i = 1; i < q.s.length && worst > M_FUZZY; i++) {
      if (!q.glued[i]) continue;
      var found = false;
      for (var j = 1; j < n.s.length && !found; j++) {
        var mm = tokenMatch(q.s[i], n.s[j]);
        found = tokenMatch(q.s[i - 1], n.s[j - 1]) === M_EQUAL &&
          (mm === M_EQUAL || (mm === M_PREFIX && q.last === i && i + 1 === q.s.length));
      }
      if (!found) worst = M_FUZZY;
    }
    for (i = 0; i < q.r.length; i++) if (n.r.indexOf(q.r[i]) < 0) worst = M_FUZZY;
    if (worst === M_FUZZY) return FUZZY;
    // series words typed and the name has another: "Quadro 6000" is not
    // the whole name of the Quadro RTX 6000
    var moreSeries = q.r.length > 0 && n.r.some(function (w) { return q.r.indexOf(w) < 0; });
    if (worst === M_PREFIX || moreSeries || !sameSet(q.s, n.s)) return PREFIX;
    return sameSet(q.f, n.f) ? EXACT : FORM;
  }

  function parseCode(s, bare) {
    var b = unwrap(s).trim().toLowerCase();
    if (!b || b.length >= 63) return null;
    var m = /^\( *([0-9]+) *, *([0-9]+) *\)$/.exec(b);
    if (m) {
      var ma = parseInt(m[1], 10), mi = parseInt(m[2], 10);
      return ma >= 1 && ma <= 99 && mi <= 9 ? ma + "." + mi : null;
    }
    m = /^gfx([0-9a-f]{3,4})(:.*)?$/.exec(b);
    if (m) return "gfx" + m[1];
    m = /^(sm|compute)_?([0-9]{2,3})[af]?$/.exec(b) || (bare ? /^()([0-9]{2,3})$/.exec(b) : null);
    if (m) {
      var v = parseInt(m[2], 10);
      if (v < 10) return null;
      return Math.floor(v / 10) + "." + (v % 10);
    }
    m = /^([0-9]{1,2})\.([0-9])$/.exec(b);
    if (m && +m[1] >= 1) return +m[1] + "." + m[2];
    return null;
  }

  function cmp(x, y) {
    if (x.tier !== y.tier) return x.tier - y.tier;
    if (x.equal !== y.equal) return y.equal - x.equal;
    if (x.extra !== y.extra) return x.extra - y.extra;
    if (x.gpu.name.length !== y.gpu.name.length) return x.gpu.name.length - y.gpu.name.length;
    return x.index - y.index;
  }

  // A query that matches nothing, being typed, is tried again without its
  // open last word (see tokenize): a list to pick from, never an answer,
  // so that a name typed letter by letter never empties the list.
  function resolveOne(gpus, query, typing) {
    var r = resolveAs(gpus, query, false);
    if (typing && r.decided && r.openWord) {
      // "Radeon R" is not yet the R9700: its last word may become "RX"
      r.decided = false;
      r.cc = null;
      r.gpu = null;
      r.formDiffers = false;
    }
    if (!typing) return r;
    if (r.kind !== "none" && !r.openWord) return r;
    var again = resolveAs(gpus, query, true);
    if (!again.dropped || again.kind === "none") return r;
    if (r.kind !== "none") {
      // the open word matches some names ("g": "... Blackwell Generation")
      // and may still become a dropped word ("GeForce"): both lists, the
      // names it matches first, so typing never narrows to the wrong ones
      var seen = r.matches.map(function (x) { return x.gpu; });
      again.matches.forEach(function (x) { if (seen.indexOf(x.gpu) < 0 && r.matches.length < MAX) { r.matches.push(x); seen.push(x.gpu); } });
      again.all.forEach(function (g) { if (r.all.indexOf(g) < 0) r.all.push(g); });
      r.total = r.all.length;
      r.decided = false;
      r.cc = null;
      r.gpu = null;
      return r;
    }
    again.decided = false;
    again.cc = null;
    again.gpu = null;
    again.formDiffers = again.severalChips = false;
    again.suggest = r.suggest;
    return again;
  }

  function resolveAs(gpus, query, typing) {
    var r = { kind: "none", decided: false, cc: null, gpu: null, formDiffers: false,
              severalChips: false, matches: [], all: [], nbest: 0, total: 0, suggest: [] };
    var code = parseCode(query, false);
    if (code === null) {
      code = parseCode(query, true);
      if (code !== null && !gpus.some(function (g) { return g.cc === code; })) code = null;
    }
    if (code !== null) {
      r.kind = "code"; r.decided = true; r.cc = code;
      r.all = [];
      gpus.forEach(function (g) {
        if (g.cc !== code) return;
        if (r.matches.length < MAX) r.matches.push({ gpu: g, tier: EXACT });
        r.all.push(g);
        r.total++;
      });
      r.nbest = r.matches.length;
      return r;
    }
    var q = tokenize(query, typing);
    r.dropped = !!q.dropped;
    r.openWord = !!q.openWord;
    if (q.foreign) {
      r.kind = "foreign";
      return r;
    }
    if (!q.s.length && !q.r.length) {
      // every GPU of the vendor named (all when none): the list never empties
      r.kind = q.ignored || q.f.length ? "vague" : "none";
      if (r.kind === "vague") {
        r.all = gpus.filter(function (g) { return !q.vendor || (q.vendor === 2) === !!g.amd; });
        r.total = r.all.length;
        r.matches = r.all.slice(0, MAX).map(function (g) { return { gpu: g, tier: PREFIX }; });
      }
      return r;
    }
    var c = [], near = [];
    gpus.forEach(function (g, index) {
      if (q.vendor && (q.vendor === 2) !== !!g.amd) return;
      var n = g.tokens || (g.tokens = tokenize(g.name));
      var out = {};
      var tier = tierOf(q, n, out);
      var extra = n.s.length > out.matched ? n.s.length - out.matched : 0;
      var equal = countEqual(q, n);
      if (tier >= 0 && tier !== FUZZY) {
        c.push({ gpu: g, tier: tier, extra: extra, index: index,
                 extends: tier === PREFIX && startsWith(q, n), equal: equal });
      } else if (out.matched) {
        near.push({ gpu: g, tier: tier < 0 ? 1 : 0, extra: extra, index: index, equal: equal,
                    matched: out.matched });
      }
    });
    if (!c.length) {
      near.sort(function (x, y) { return y.matched - x.matched || cmp(x, y); });
      r.suggest = near.slice(0, 3).map(function (x) { return x.gpu; });
      return r;
    }
    c.sort(cmp);
    if (c[0].tier <= FORM)
      c = c.filter(function (x) { return x.tier !== PREFIX || x.extends; });
    r.kind = "name";
    r.total = c.length;
    r.matches = c.slice(0, MAX).map(function (x) { return { gpu: x.gpu, tier: x.tier }; });
    r.all = c.map(function (x) { return x.gpu; });
    var best = c[0].tier;
    r.decided = best !== FUZZY;
    for (var i = 0; i < c.length && c[i].tier === best; i++) {
      r.nbest++;
      if (c[i].gpu.cc !== c[0].gpu.cc) r.decided = false;
    }
    if (r.decided && best === PREFIX)
      for (i = 0; i < r.nbest; i++) if (!c[i].extends) r.decided = false;
    if (!q.s.length) { r.kind = "vague"; r.decided = false; }
    if (r.decided && c[0].gpu.other && c[0].gpu.other.length) {
      r.decided = false;
      r.severalChips = true;
    }
    if (r.decided) {
      r.cc = c[0].gpu.cc;
      r.gpu = c[0].gpu;
      r.formDiffers = best === FORM;
    }
    return r;
  }

  var HEADER = ["name", "compute_cap", "driver_version", "pci.bus_id", "uuid", "index",
                "memory.total"];
  function headerField(f) { return HEADER.indexOf(f.trim().toLowerCase()) >= 0; }

  // nvidia-smi --query-gpu=name,compute_cap --format=csv pasted whole (see
  // resolve_csv in gpuname.c).
  function resolveCsv(gpus, query) {
    var lines = query.split(/[\r\n]+/).filter(function (l) { return l.length; });
    var line = null;
    for (var i = 0; i < lines.length && line === null; i++) {
      var fields = lines[i].split(",").filter(function (f) { return f.length; });
      if (fields.length && !fields.every(headerField)) line = lines[i];
    }
    if (line === null) return null;
    var name = "", cc = null, code = "";
    line.split(",").filter(function (f) { return f.length; }).forEach(function (f) {
      var v = cc === null ? parseCode(f, false) : null;
      if (v !== null) { cc = v; code = f; }
      else if (!name && !headerField(f)) name = f;
    });
    var byName = resolveOne(gpus, name);
    if (cc === null || (byName.decided && byName.cc === cc)) return byName;
    return resolveOne(gpus, code);
  }

  // opts.typing: the query is still being typed (see resolveOne).
  function resolve(gpus, query, opts) {
    if (/[,\n]/.test(query) && parseCode(query, false) === null) {
      var csv = resolveCsv(gpus, query);
      if (csv) return csv;
    }
    var r = resolveOne(gpus, query, !!(opts && opts.typing));
    if (!r.decided && query.indexOf("/") >= 0) {
      var parts = query.split("/").filter(function (p) { return p.length; }), alt = null;
      for (var i = 0; i < parts.length; i++) {
        var p = resolveOne(gpus, parts[i]);
        if (!p.decided || (alt && p.cc !== alt.cc)) { alt = null; break; }
        if (!alt) alt = p;
      }
      if (alt) r = alt;
    }
    return r;
  }

  var api = { resolve: resolve, parseCode: parseCode, tokenize: tokenize,
              EXACT: EXACT, FORM: FORM, PREFIX: PREFIX, FUZZY: FUZZY };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.wheelarchGpuname = api;
}(this));
