// wheelarch home page: a filter over the GPU list with an instant answer.
// Everything works without this script (each GPU has its own page). Names
// are resolved by gpuname.js (the rules of `wheelarch query --gpu`); the
// answers come from answers.js (api/v1/gpus.json in short); both, and
// driver.js, load the first time the filter is used.
(function () {
  "use strict";
  var box = document.getElementById("search");
  var form = document.getElementById("find");
  var q = document.getElementById("q");
  var count = document.getElementById("count");
  var answer = document.getElementById("answer");
  if (!box || !form || !q) return;
  var root = box.getAttribute("data-root") || "./";
  var names = { "linux-x86_64": "Linux x86_64", "linux-aarch64": "Linux aarch64", "windows-x86_64": "Windows x86_64" };
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
  var G = null, answers = null, commands = null, loading = false, last = null;
  /* an answer's commands, by their place in answers.js: pip's line and uv's */
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
    script("driver.js", one);
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

  function card(r) {
    var plat = platform();
    var c = el("div", null, "card");
    var h = el("p");
    if (r.gpu) {
      h.appendChild(link(r.gpu));
      h.appendChild(document.createTextNode(" (" + device(r.cc) + ")"));
    } else {
      h.appendChild(el("strong", device(r.cc)));
      h.appendChild(document.createTextNode(r.total ? " (" + r.total + " GPU" + (r.total === 1 ? "" : "s") + " in the list below)" : ""));
    }
    c.appendChild(h);
    if (r.formDiffers)
      c.appendChild(el("p", "Answered for " + r.gpu.name + ": the list has no row for the laptop (or desktop) form of that name, and both share a compute capability.", "small"));
    // Other GPUs the words fit ("1080" also fits the 1080 Ti): say whether
    // the answer differs for them.
    // Only those with another answer are worth a line: "H100" or "RTX 5090"
    // also fitting a GPU of the same compute capability changes nothing.
    if (r.gpu) {
      var also = r.matches.slice(r.nbest).map(function (m) { return m.gpu; })
        .filter(function (g) { return g.cc !== r.cc; }).slice(0, 3);
      if (also.length) {
        var ap = el("p", null, "small");
        listLine(ap, "Answering for " + r.gpu.name + "; “" + q.value.trim() + "” also fits ", also,
                 ": pick yours in the list, the answer differs.");
        c.appendChild(ap);
      }
    }
    // a GPU sold only in Arm systems (GH200: "9.0/arm") or a DRIVE or IGX
    // system's Tegra part ("8.7/drive") has answers of its own
    var d = (answers[r.cc + (r.gpu && r.gpu.host ? "/" + r.gpu.host : "")] || {})[plat];
    if (!d) {
      c.appendChild(el("p", "No " + names[plat] + " build in the data has code for this GPU."));
    } else if (d.guidance) {
      c.appendChild(el("p", d.guidance + "."));
    } else if (d.index) {
      var p = el("p");
      // the headline says the driver it needs; a typed driver rewrites it
      var head = function () {
        p.textContent = "";
        p.appendChild(document.createTextNode(names[plat] + ", " + (d.fallback ? "no variant of torch " + d.release + " runs on it; the newest that does is torch " + d.pin + " from the " : "torch " + d.release + ": use the ")));
        p.appendChild(el("strong", d.index, "rec"));
        p.appendChild(document.createTextNode(" index (" + d.symbol + " " + d.label + (d.min_driver ? "; NVIDIA driver " + d.min_driver + " or newer" : "") + ")."));
      };
      head();
      c.appendChild(p);
      var pre = el("pre", lines(d.cmd));
      pre.className = "cmd";
      c.appendChild(pre);
      var un = el("p", "Replacing an installed torch? Run ", "small");
      un.appendChild(el("code", commands.uninstall, "cmd"));
      un.appendChild(document.createTextNode(" first: pip keeps an installed torch that already satisfies torch==" + d.pin + "."));
      c.appendChild(un);
      c.appendChild(el("p", "Source: " + d.provenance + "." + (d.min_driver ? " Needs NVIDIA driver " + d.min_driver + " or newer" + (d.full_driver ? " (" + d.full_driver + " or newer recommended: below it, CUDA minor-version compatibility)" : "") + "." : ""), "prov"));
      if (d.pypi_no)
        c.appendChild(el("p", "Plain pip install torch (PyPI, " + (d.pypi_no === "cpu" ? "CPU-only" : "a " + d.pypi_no + " build") + ") has no code for this GPU: use the command above."));
      else if (d.pypi_yes)
        c.appendChild(el("p", "Plain pip install torch (PyPI, a " + d.pypi_yes + " build) runs on it too."));
      if (d.by_driver && window.wheelarchDriver) {
        var lab = el("label", "Your NVIDIA driver: ");
        var inp = el("input");
        inp.setAttribute("inputmode", "decimal");
        inp.placeholder = "e.g. 570.86.15";
        lab.appendChild(inp);
        var res = el("p");
        res.setAttribute("aria-live", "polite");
        inp.addEventListener("input", function () {
          var row = window.wheelarchDriver.pick(d.by_driver, inp.value);
          var drv = inp.value.trim();
          pre.hidden = row === null;
          if (row === undefined) { head(); pre.textContent = lines(d.cmd); res.textContent = drv ? "Type a driver version such as 570.86.15." : ""; return; }
          p.textContent = "";
          if (row === null) {
            p.appendChild(document.createTextNode(names[plat] + ", driver " + drv + ": no build in the data loads with it; update it to " + d.by_driver[d.by_driver.length - 1].min_driver + " or newer."));
          } else {
            p.appendChild(document.createTextNode(names[plat] + ", driver " + drv + ": use the "));
            p.appendChild(el("strong", row.index, "rec"));
            p.appendChild(document.createTextNode(" index, torch " + row.pin + " (driver " + row.min_driver + " or newer)."));
            pre.textContent = lines(row.cmd);
          }
          res.textContent = "The answer above is for driver " + drv + ".";
        });
        c.appendChild(lab);
        c.appendChild(res);
      }
    } else {
      c.appendChild(el("p", "No release in the data runs on this GPU on " + names[plat] + "; its page says what to do."));
    }
    if (r.gpu)
      c.appendChild(el("p", "Enter opens the GPU's page: every release, variant and platform.", "small"));
    return c;
  }

  /* The segments are closed <details> (a phone lays out none of their 612
   * links before the filter can answer).  While a name is typed, each shows
   * open with its matches or not at all; cleared, each is back as it was. */
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
    var r = G.resolve(gpus, text, { typing: true });
    last = r;
    var visible = new Set((r.all || []).map(function (g) { return g.li; }));
    show(visible);
    if (r.decided) {
      count.textContent = r.total + " GPU" + (r.total === 1 ? "" : "s") + " listed below.";
      answer.appendChild(card(r));
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
      // words before it fit
      p.textContent = "No GPU name has “" + text + "” yet: " + (/\s/.test(text) ? "below, the " + r.total +
        " that the words before its last one fit" : "the list stays whole") + ". Type on, or pick yours.";
    } else if (r.kind === "name" && r.matches.every(function (m) { return m.gpu.cc === r.matches[0].gpu.cc; })) {
      // an unfinished name ("108"): every GPU it may start has one answer
      p.textContent = "“" + text + "” is not a whole name yet; " + (r.total === 1 ? "it may start the GPU below, of " +
        device(r.matches[0].gpu.cc) + ". Pick it, or type more of its name." : "the " + r.total +
        " GPUs below that it may start all have " + device(r.matches[0].gpu.cc) +
        ", so the same answer. Pick yours, or type more of its name.");
    } else if (r.kind === "name" || r.kind === "vague") {
      p.textContent = (r.kind === "vague" ? "“" + text + "” does not name one GPU" : "“" + text + "” fits GPUs of different architectures") + ": " + r.total + " below. Pick yours, or type more of its name.";
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

  /* the platform: the one picked before, else the browser's own */
  var P = window.wheelarchPrefs;
  var mine = P ? form.querySelector("input[name=platform][value='" + P.platform() + "']") : null;
  if (mine) mine.checked = true;
  box.hidden = false;
  box.setAttribute("data-ready", "");
  q.addEventListener("input", update);
  q.addEventListener("focus", load);
  form.addEventListener("change", function (e) {
    if (e.target.name !== "platform") return;
    if (P) P.set("platform", e.target.value);
    update();
  });
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    update();
    if (last && last.decided && last.gpu) window.location.href = last.gpu.href;
  });
  if (q.value) update();
}());
