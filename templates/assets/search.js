// wheelarch home page: a filter over the GPU list with an instant answer.
// Everything works without this script (each GPU has its own page). Names
// are resolved by gpuname.js (the rules of `wheelarch query --gpu`); the
// answers come from answers.js (api/v1/gpus.json in short); both, and
// decide.js, load the first time the filter is used.  With a driver or a
// Python set, the card's answer is decide.js's over the device's feed file,
// loaded then: the same object, the same words, as on the GPU page.
(function () {
  "use strict";
  var box = document.getElementById("search");
  var form = document.getElementById("find");
  var q = document.getElementById("q");
  var count = document.getElementById("count");
  var answer = document.getElementById("answer");
  if (!box || !form || !q) return;
  var root = box.getAttribute("data-root") || "./";
  var names = { "linux-x86_64": "Linux x86_64", "linux-aarch64": "Linux aarch64", "windows-x86_64": "Windows x86_64", "windows-arm64": "Windows on Arm" };
  // The GPU list, read from the page when the filter is first used, not
  // before the box shows (612 links: tens of milliseconds on a slow phone).
  var items = null, gpus = null;
  function collect() {
    if (gpus) return;
    items = Array.prototype.slice.call(document.querySelectorAll("ul.gpus li"));
    gpus = items.map(function (li) {
      var a = li.querySelector("a"), cc = li.querySelector("small").textContent;
      var other = li.getAttribute("data-o");
      return { li: li, name: a.textContent, href: a.getAttribute("href"), cc: cc,
               amd: cc.indexOf("gfx") === 0, other: other ? other.split(" ") : [],
               host: li.getAttribute("data-h") || "" };
    });
  }
  var segs = Array.prototype.slice.call(document.querySelectorAll("details.seg"));
  var drvIn = document.getElementById("driver"), pySel = document.getElementById("python");
  var G = null, answers = null, commands = null, loading = false, last = null;
  // an answer's commands, by their place in answers.js: pip's line and uv's
  function lines(k) {
    var x = commands && commands.lines[k];
    return x ? x[0] + "\n" + x[1] : "";
  }

  // The resolver, the answers and the driver rules load the first time the
  // filter is used, so the page itself stays small.
  function script(name, done) {
    var s = document.createElement("script");
    s.src = root + "assets/" + name;
    s.onload = done;
    document.body.appendChild(s);
  }
  function load() {
    if (loading) return;
    loading = true;
    var left = 3;
    function one() {
      if (--left) return;
      G = window.wheelarchGpuname;
      answers = window.wheelarchAnswers || {};
      commands = window.wheelarchCommands || { lines: [] };
      update();
    }
    script("gpuname.js", one);
    script("answers.js", one);
    script("decide.js", one);
  }
  function platform() {
    var r = form.querySelector("input[name=platform]:checked");
    return r ? r.value : "linux-x86_64";
  }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function link(g) {
    var a = el("a", g.name);
    a.href = g.href;
    return a;
  }
  function device(cc) {
    return cc.indexOf("gfx") === 0 ? cc : "compute capability " + cc;
  }
  // A sentence with links: "Did you mean A (6.1), B (7.5)?"
  function listLine(p, intro, list, outro) {
    p.appendChild(document.createTextNode(intro));
    list.forEach(function (g, i) {
      if (i) p.appendChild(document.createTextNode(", "));
      p.appendChild(link(g));
      p.appendChild(document.createTextNode(" (" + g.cc + ")"));
    });
    p.appendChild(document.createTextNode(outro));
  }
  function examples(p) {
    p.appendChild(document.createTextNode(" Try a name as nvidia-smi prints it (NVIDIA GeForce RTX 3060 Laptop GPU), a model (1080 Ti, A100, RX 7900 XTX), a compute capability (6.1, sm_61) or an AMD processor (gfx1100)."));
  }

  // The device's feed files, loaded once each when a driver or Python asks
  // for them: src -> the document, or "loading", or null (failed).
  var files = {};
  function file(src) {
    if (Object.prototype.hasOwnProperty.call(files, src)) return files[src];
    files[src] = "loading";
    var xhr = new XMLHttpRequest();
    xhr.open("GET", root + src);
    xhr.responseType = "json";
    xhr.timeout = 20000;
    xhr.onload = function () {
      var doc = xhr.status === 200 || xhr.status === 0 ? xhr.response : null;
      files[src] = doc && doc.platforms ? doc : null;
      update();
    };
    xhr.onerror = xhr.ontimeout = function () { files[src] = null; update(); };
    xhr.send();
    return "loading";
  }
  function given() {
    return { driver: drvIn ? drvIn.value.trim() : "", python: pySel ? pySel.value : "" };
  }
  // The page's own answer of answers.js, as decide.js reads an answer.
  function short(d) {
    return { kind: "base", index: d.index, pin: d.pin, pinText: window.wheelarchDecide.pinText(d.pin),
             release: window.wheelarchDecide.releaseOf(d.pin), verdict: d.verdict, symbol: d.symbol, label: d.label,
             min_driver: d.min_driver || null, commands: commands.lines[d.cmd] ? { pip: commands.lines[d.cmd][0], uv: commands.lines[d.cmd][1] } : null,
             given: { driver: "", python: "" } };
  }
  function nodes(p, list) {
    list.forEach(function (x) { p.appendChild(typeof x === "string" ? document.createTextNode(x) : x); });
  }

  function card(r) {
    var D = window.wheelarchDecide, g = given();
    var c = el("div", null, "card");
    var h = el("p", null, "gpuline");
    if (r.gpu) {
      h.appendChild(link(r.gpu));
      h.appendChild(document.createTextNode(" (" + device(r.cc) + ")"));
    } else {
      h.appendChild(el("strong", device(r.cc)));
      h.appendChild(document.createTextNode(r.total ? " (" + r.total + " GPU" + (r.total === 1 ? "" : "s") + " in the list below)" : ""));
    }
    c.appendChild(h);
    var notes = [];
    if (r.formDiffers)
      notes.push(el("p", "Answered for " + r.gpu.name + ": the list has no row for the laptop (or desktop) form of that name, and both share a compute capability.", "small"));
    // Other GPUs the words fit ("1080" also fits the 1080 Ti): say whether
    // the answer differs for them; only those with another answer.
    if (r.gpu) {
      var also = r.matches.slice(r.nbest).map(function (m) { return m.gpu; })
        .filter(function (x) { return x.cc !== r.cc; }).slice(0, 3);
      if (also.length) {
        var ap = el("p", null, "small");
        listLine(ap, "Answering for " + r.gpu.name + "; “" + q.value.trim() + "” also fits ", also,
                 ": pick yours in the list, the answer differs.");
        notes.push(ap);
      }
    }
    // a GPU sold only in Arm systems (GH200: "9.0/arm") or a DRIVE or IGX
    // system's Tegra part ("8.7/drive") has answers of its own
    var per = answers[r.cc + (r.gpu && r.gpu.host ? "/" + r.gpu.host : "")] || {};
    var chosen = platform(), plat = chosen;
    var works = function (p) { return per[p] && per[p].index; };
    if (!works(plat)) {
      // the platform follows the GPU: one with answers on one platform
      // only (GB10: Arm hosts) answers there
      var only = Object.keys(names).filter(works);
      if (only.length === 1) plat = only[0];
    }
    var d = per[plat];
    if (plat !== chosen)
      c.appendChild(el("p", (per[chosen] && per[chosen].guidance ? per[chosen].guidance + "." :
                             "No " + names[chosen] + " build has code for this GPU.") + " It runs on " + names[plat] + ":", "small"));
    if (!d) {
      c.appendChild(el("p", "No " + names[plat] + " build in the data has code for this GPU."));
    } else if (d.guidance) {
      c.appendChild(el("p", d.guidance + "."));
    } else if (d.index) {
      var ans = short(d), pypi = null, wait = false, lost = false;
      if (g.driver || g.python) {
        var doc = file(per.src);
        if (doc === "loading") wait = true;
        else if (doc) {
          var pl = D.platform(doc.platforms[plat]);
          ans = D.decide(pl, g.driver, g.python);
          pypi = D.pypi(pl.pypi, ans);
        } else lost = true;
      }
      /* what the answer is for, when it is not what was set */
      if (lost) c.appendChild(el("p", "This GPU's driver and Python tables did not load: the answer below is for any driver and Python.", "small"));
      else if (ans.badDriver) c.appendChild(el("p", "“" + g.driver + "” is not a driver version (nvidia-smi shows one such as 570.86.15): the answer below is for any driver.", "small"));
      else if (ans.beyondBranch) c.appendChild(el("p", "NVIDIA's drivers for this GPU end at " + ans.beyondBranch.branch + " (CUDA " + ans.beyondBranch.cuda + "): driver " + g.driver + " is of a later branch, which does not run it. The answer below is for its last branch.", "small"));
      var p = el("p", null, "headline");
      if (wait) {
        p.textContent = names[plat] + ": finding the answer for " + (g.driver ? "driver " + g.driver : "") + (g.driver && g.python ? " and " : "") + (g.python ? "Python " + g.python : "") + "…";
        c.appendChild(p);
      } else if (ans.kind === "base") {
        p.appendChild(el("span", (ans.symbol || "") + " " + ans.label, "v v-" + ans.verdict));
        p.appendChild(document.createTextNode(" " + names[plat] + ", " + (d.fallback ? "no variant of torch " + d.release + " runs on it; the newest that does is torch " + ans.pinText + " from the " : "torch " + ans.pinText + ": use the ")));
        p.appendChild(el("strong", d.index, "rec"));
        p.appendChild(document.createTextNode(" index" + (d.min_driver ? ", with NVIDIA driver " + d.min_driver + " or newer" : "") + "."));
        c.appendChild(p);
      } else {
        p.appendChild(document.createTextNode(names[plat] + ": "));
        nodes(p, D.headline(ans));
        c.appendChild(p);
      }
      var box = wait ? null : D.commands(ans);
      if (box) {
        c.appendChild(box);
        if (window.wheelarchCopy) window.wheelarchCopy.add(c);
        var sc = D.scope(ans);
        if (sc) c.appendChild(el("p", sc, "small scope"));
        var un = el("p", "Replacing an installed torch? Run ", "small");
        un.appendChild(el("code", commands.uninstall, "cmd"));
        un.appendChild(document.createTextNode(" first: pip keeps an installed torch that already satisfies torch==" + ans.pin + "."));
        c.appendChild(un);
        if (ans.kind === "base")
          c.appendChild(el("p", "Source: " + d.provenance + "." + (d.min_driver ? " Needs NVIDIA driver " + d.min_driver + " or newer" + (d.full_driver && d.full_driver !== d.min_driver ? " (" + d.full_driver + " or newer recommended: below it, CUDA minor-version compatibility)" : "") + "." : ""), "prov"));
      }
      if (!wait) {
        var pp = el("p", null, "pypi");
        if (d.pypi_no) pp.textContent = "Plain pip install torch (PyPI, " + (d.pypi_no === "cpu" ? "CPU-only" : "a " + d.pypi_no + " build") + ") has no code for this GPU" + (box ? ": use the command above." : ".");
        else if (d.pypi_yes && pypi && pypi.text) pp.textContent = "Plain pip install torch (PyPI, torch " + (d.pypi_release || "") + ", a " + d.pypi_yes + " build): " + pypi.text;
        else if (d.pypi_yes && (ans.kind === "base" || pypi && pypi.runs))
          pp.textContent = "Plain pip install torch (PyPI, a " + d.pypi_yes + " build) runs on it too" + (d.pypi_min_driver ? ", with NVIDIA driver " + d.pypi_min_driver + " or newer" : "") + ".";
        if (pp.textContent) c.appendChild(pp);
      }
    } else {
      c.appendChild(el("p", "No release in the data runs on this GPU on " + names[plat] + "; its page says what to do."));
    }
    notes.forEach(function (n) { c.appendChild(n); });
    if (r.gpu)
      c.appendChild(el("p", "Enter opens the GPU's page: every release, variant and platform.", "small"));
    return c;
  }

  // The segments are closed <details> (a phone lays out none of their 612
  // links before the filter can answer).  While a name is typed, each shows
  // open with its matches or not at all; cleared, each is back as it was.
  function show(visible) {
    if (!items) return;
    items.forEach(function (li) { li.hidden = visible !== null && !visible.has(li); });
    segs.forEach(function (d) {
      var was = d.getAttribute("data-was");
      if (visible === null) {
        d.hidden = false;
        if (was !== null) {
          d.open = was === "1";
          d.removeAttribute("data-was");
        }
        return;
      }
      var none = !d.querySelector("ul.gpus li:not([hidden])");
      if (was === null) d.setAttribute("data-was", d.open ? "1" : "0");
      d.hidden = none;
      d.open = !none;
    });
  }

  // How many listed names start with the text (NVIDIA's prefix aside, as
  // nvidia-smi prints names).
  function starting(text) {
    var t = text.toLowerCase().replace(/\s+/g, " ").replace(/^nvidia /, "");
    if (t.length < 3) return 0;
    return gpus.filter(function (g) { return g.name.toLowerCase().replace(/^nvidia /, "").indexOf(t) === 0; }).length;
  }

  // A phone's keyboard covers half the screen: when the answer's command
  // is under it, the page scrolls up just enough, never past the box.
  function reveal(c) {
    if (document.activeElement !== q) return;
    var vv = window.visualViewport, h = vv ? vv.height : window.innerHeight;
    var r = (c.querySelector(".answer-cmd") || c).getBoundingClientRect();
    var room = q.getBoundingClientRect().top - 4;
    if (r.bottom > h && room > 0) window.scrollBy(0, Math.min(r.bottom - h + 8, room));
  }

  // A pasted error or nvidia-smi output (docs/explain.md, as `wheelarch
  // explain` reads them): the message's page, and the GPU name and device
  // code it carries; null for a name as typed.
  var MESSAGES = [
    [/not compatible with the current PyTorch install/i, "not-compatible", "torch's “not compatible with the current PyTorch installation”"],
    [/PyTorch no longer supports this GPU/i, "too-old", "torch's “no longer supports this GPU because it is too old”"],
    [/which is of compute capability \(CC\)/i, "capability-table", "torch's capability table"],
    [/no kernel image is available/i, "no-kernel-image", "“no kernel image is available for execution on the device”"],
    [/PTX was compiled with an unsupported toolchain/i, "ptx-unsupported-toolchain", "“the provided PTX was compiled with an unsupported toolchain”"],
    [/driver version is insufficient for CUDA runtime/i, "driver-insufficient", "“CUDA driver version is insufficient for CUDA runtime version”"],
    [/not compiled with CUDA enabled/i, "not-compiled-with-cuda", "“Torch not compiled with CUDA enabled”"],
    [/invalid device function/i, "invalid-device-function", "“invalid device function”"],
    [/HSA_OVERRIDE_GFX_VERSION/i, "hsa-override", "HSA_OVERRIDE_GFX_VERSION"]];
  var CARRIERS = [
    [/(?:^|[:.] )\s*([^:.]{2,90}?) with CUDA capability sm_(\d{2,3})\b/i, function (m) { return [m[1], "sm_" + m[2]]; }],
    [/Found GPU\d+\s+(.{2,90}?) which is of (?:cuda|compute) capability (?:\(CC\) )?(\d{1,2}\.\d)/i, function (m) { return [m[1], m[2]]; }],
    [/name, compute_cap\s+([^,]{2,90}?),\s*(\d{1,2}\.\d)/i, function (m) { return [m[1], m[2]]; }],
    [/\|\s*\d{1,2}\s{2,}([A-Za-z][^|]{1,90}?)\s{2,}(?:On|Off)\s*\|/, function (m) { return [m[1], null]; }],
    [/GPU \d+: (.{2,90}?) \(UUID:/, function (m) { return [m[1], null]; }],
    [/\b(gfx[0-9a-f]{3,4})\b/i, function (m) { return [null, m[1].toLowerCase()]; }]];
  function pasted(text) {
    var msg = null, gpu = null;
    MESSAGES.forEach(function (m) { if (!msg && m[0].test(text)) msg = { slug: m[1], label: m[2] }; });
    CARRIERS.forEach(function (c) { var m; if (!gpu && (m = c[0].exec(text))) gpu = c[1](m); });
    if (!msg && !gpu) return null;
    if (!msg && gpu && gpu[0] === null && text.length < 12) return null; /* "gfx1100" typed */
    if (!msg && !/[|:(]|compute_cap/.test(text)) return null;
    return { msg: msg, name: gpu ? gpu[0] : null, code: gpu ? gpu[1] : null };
  }
  function pasteNote(px) {
    var p = el("p", null, "small paste");
    p.appendChild(document.createTextNode(px.msg ? "Read from the pasted text: " + px.msg.label + " (" : "Read from the pasted text"));
    if (px.msg) {
      var a = el("a", "what it means");
      a.href = "errors/" + px.msg.slug + "/";
      p.appendChild(a);
      p.appendChild(document.createTextNode(")"));
    }
    p.appendChild(document.createTextNode(px.name || px.code ? "; the GPU it names: " + (px.name || px.code) + "." : "."));
    return p;
  }

  function update() {
    var text = q.value.trim();
    answer.textContent = "";
    if (!text) {
      last = null;
      count.textContent = "";
      show(null);
      return;
    }
    load();
    collect();
    if (!G) {
      count.textContent = "Loading…";
      return;
    }
    var px = pasted(text), r;
    if (px && (px.name || px.code)) {
      r = G.resolve(gpus, px.name || px.code, { typing: false });
      if (!r.decided && px.name && px.code) r = G.resolve(gpus, px.code, { typing: false });
    } else if (px) {
      /* a message that names no GPU: what it means, and what to paste */
      last = null;
      count.textContent = "";
      show(null);
      var pc = el("div", null, "card");
      pc.appendChild(pasteNote(px));
      pc.appendChild(el("p", "It does not say which GPU. Paste the output of nvidia-smi --query-gpu=name,compute_cap --format=csv (AMD: rocminfo | grep gfx) too, or type the GPU's name."));
      answer.appendChild(pc);
      return;
    } else {
      r = G.resolve(gpus, text, { typing: true });
    }
    last = r;
    var visible = new Set((r.all || []).map(function (g) { return g.li; }));
    show(visible);
    if (r.decided) {
      count.textContent = "";
      var c = card(r);
      if (px) c.insertBefore(pasteNote(px), c.firstChild);
      answer.appendChild(c);
      reveal(c);
      return;
    }
    var p = el("p");
    if (r.kind === "foreign") {
      p.textContent = "“" + text + "” is not an NVIDIA or AMD GPU: no CUDA or ROCm wheel runs on it. PyTorch's Intel GPU builds come from the xpu index; Apple GPUs use MPS in the plain pip install torch.";
    } else if (r.severalChips) {
      var g = r.matches[0].gpu;
      p.textContent = g.name + " was sold with chips of compute capability " + [g.cc].concat(g.other).join(", ") + ". Type the one yours has: python -c \"import torch; print(torch.cuda.get_device_capability())\" prints it (or nvidia-smi --query-gpu=compute_cap, with driver 510 or newer).";
    } else if (r.dropped) {
      // typed so far: its last word fits no name yet; the list is what the
      // words before it fit, and the name is simply unfinished
      var before = text.replace(/[\s-]*[^\s-]+$/, "");
      p.textContent = before ? "Keep typing: " + r.total + " GPU" + (r.total === 1 ? "" : "s") + " below fit “" + before + "”." :
        "Keep typing, or pick yours from the " + gpus.length + " GPUs below.";
    } else if (r.kind === "name" && r.matches.every(function (m) { return m.gpu.cc === r.matches[0].gpu.cc; })) {
      // an unfinished name ("108"): every GPU it may start has one answer
      p.textContent = "“" + text + "” is not a whole name yet; " + (r.total === 1 ? "it may start the GPU below, of " +
        device(r.matches[0].gpu.cc) + ". Pick it, or type more of its name." : "the " + r.total +
        " GPUs below that it may start all have " + device(r.matches[0].gpu.cc) +
        ", so the same answer. Pick yours, or type more of its name.");
    } else if (r.kind === "name" || r.kind === "vague") {
      p.textContent = (r.kind === "vague" ? "“" + text + "” does not name one GPU" : "“" + text + "” fits GPUs of different architectures") + ": " + r.total + " below. Pick yours, or type more of its name.";
    } else if (/^(gf|gfx[0-9a-f]{0,4}|sm_?[0-9]{0,3}[af]?|compute_?[0-9]{0,3})$/i.test(text)) {
      // a device code on its way (gfx11, sm_1): what it will be, not "no match"
      p.textContent = "Keep typing the device code: gfx and the AMD processor's number (gfx1100), or sm_ and the compute capability (sm_86, sm_120).";
    } else if (starting(text)) {
      // the start of a listed name, cut inside a word ("... with Max-")
      var n = starting(text);
      p.textContent = "Keep typing: " + n + " GPU name" + (n === 1 ? " starts" : "s start") + " with “" + text + "”.";
    } else if (r.suggest.length) {
      listLine(p, "No GPU matches “" + text + "”. Did you mean ", r.suggest, "?");
      examples(p);
    } else {
      p.textContent = "No GPU matches “" + text + "”.";
      examples(p);
    }
    count.textContent = "";
    var c = el("div", null, "card");
    c.appendChild(p);
    answer.appendChild(c);
  }

  // the platform: the one picked before, else the browser's own (a value
  // compared with the radios', never put in a selector); the driver and
  // Python: the ones set before, here or on a GPU page
  var P = window.wheelarchPrefs;
  if (P) {
    var want = P.platform();
    Array.prototype.forEach.call(form.querySelectorAll("input[name=platform]"), function (r) { if (r.value === want) r.checked = true; });
    if (drvIn) drvIn.value = P.get("driver");
    var rp = P.get("python");
    if (pySel && Array.prototype.some.call(pySel.options, function (o) { return o.value === rp; })) pySel.value = rp;
  }
  box.hidden = false;
  box.setAttribute("data-ready", "");
  q.addEventListener("input", update);
  q.addEventListener("focus", load);
  form.addEventListener("change", function (e) {
    // the name box's own change (on blur) is no news: update ran on input,
    // and a second run would redraw the card under a tap on its Copy
    if (e.target === q || e.target === drvIn) return;
    if (e.target.name === "platform" && P) P.set("platform", e.target.value);
    if (e.target === pySel && P) P.set("python", pySel.value);
    update();
  });
  if (drvIn) drvIn.addEventListener("input", function () {
    if (P) P.set("driver", drvIn.value.trim());
    update();
  });
  // Enter in the name box opens the GPU's page (the form has more than one
  // box, so Enter submits nothing by itself).
  function open(e) {
    e.preventDefault();
    update();
    if (last && last.decided && last.gpu) window.location.href = last.gpu.href;
  }
  form.addEventListener("submit", open);
  q.addEventListener("keydown", function (e) { if (e.key === "Enter") open(e); });
  if (q.value) update();
}());
