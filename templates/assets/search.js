// wheelarch home page: a filter box over the GPU list and an instant verdict.
// Everything works without this script (each GPU has its own page).
(function () {
  "use strict";
  var box = document.getElementById("search");
  var q = document.getElementById("q");
  var count = document.getElementById("count");
  var answer = document.getElementById("answer");
  var dataEl = document.getElementById("ccdata");
  if (!box || !q || !dataEl) return;
  var data = JSON.parse(dataEl.textContent);
  var items = Array.prototype.slice.call(document.querySelectorAll("ul.gpus li"));
  var brand = { nvidia: 1, geforce: 1, amd: 1, radeon: 1 };
  function tokens(s) {
    var out = [];
    (s.toLowerCase().match(/[a-z]+|[0-9]+/g) || []).forEach(function (t) {
      if (!brand[t]) out.push(t);
    });
    return out;
  }
  var index = items.map(function (li) {
    var a = li.querySelector("a");
    return { li: li, name: a.textContent, href: a.getAttribute("href"), cc: li.getAttribute("data-cc"), tok: tokens(a.textContent) };
  });
  function matches(entry, qt) {
    return qt.every(function (t) { return entry.tok.indexOf(t) >= 0 || entry.tok.some(function (x) { return x.indexOf(t) === 0; }); });
  }
  function text(tag, s, cls) {
    var el = document.createElement(tag);
    el.textContent = s;
    if (cls) el.className = cls;
    return el;
  }
  function show(entry) {
    answer.textContent = "";
    var d = data[entry.cc];
    var card = document.createElement("div");
    card.className = "card";
    var h = document.createElement("p");
    var link = text("a", entry.name);
    link.href = entry.href;
    h.appendChild(link);
    h.appendChild(document.createTextNode(entry.cc.indexOf("gfx") === 0 ? " (" + entry.cc + ")" : " (compute capability " + entry.cc + ")"));
    card.appendChild(h);
    if (d && d.guidance) {
      card.appendChild(text("p", d.guidance));
    } else if (d && d.index) {
      var p = document.createElement("p");
      p.appendChild(document.createTextNode(d.platform + ", " + (d.fallback ? "no variant of torch " + d.release + " runs on it; the newest that does is torch " + d.pin + " from the " : "torch " + d.release + ": use the ")));
      p.appendChild(text("strong", d.index, "rec"));
      p.appendChild(document.createTextNode(" index (" + d.symbol + " " + d.label + ")."));
      card.appendChild(p);
      card.appendChild(text("pre", d.pip));
      card.appendChild(text("p", "Source: " + d.provenance + "." + (d.min_driver ? " Needs NVIDIA driver " + d.min_driver + " or newer" + (d.full_driver ? " (" + d.full_driver + " or newer recommended: below it, CUDA minor-version compatibility)" : "") + "." : ""), "prov"));
      if (d.pypi_build && d.pypi_runs === false)
        card.appendChild(text("p", "Plain pip install torch (PyPI, " + (d.pypi_build === "cpu" ? "CPU-only" : "a " + d.pypi_build + " build") + ") has no code for this GPU: use the command above."));
      if (d.by_driver && d.by_driver.length > 1 && window.wheelarchDriver) {
        var lab = text("label", "Your NVIDIA driver: ");
        var inp = document.createElement("input");
        inp.setAttribute("inputmode", "decimal");
        inp.placeholder = "e.g. 570.86.15";
        lab.appendChild(inp);
        var res = text("p", "");
        res.setAttribute("aria-live", "polite");
        inp.addEventListener("input", function () {
          var row = window.wheelarchDriver.pick(d.by_driver, inp.value);
          res.textContent = row === undefined ? "" : row === null ? "No build in the data loads with this driver: update the driver." : "With this driver: " + row.pip;
        });
        card.appendChild(lab);
        card.appendChild(res);
      }
      card.appendChild(text("p", "Other platforms (Windows, Linux aarch64): see the GPU's page.", "small"));
    } else {
      card.appendChild(text("p", "No release in the data runs on this GPU; its page says what to do."));
    }
    answer.appendChild(card);
  }
  function update() {
    var qt = tokens(q.value);
    var shown = 0, exact = null, first = null;
    index.forEach(function (e) {
      var ok = qt.length === 0 || matches(e, qt);
      e.li.hidden = !ok;
      if (ok) {
        shown++;
        if (!first) first = e;
        if (qt.length && e.tok.length === qt.length && qt.every(function (t) { return e.tok.indexOf(t) >= 0; })) exact = exact || e;
      }
    });
    count.textContent = qt.length ? shown + " GPU" + (shown === 1 ? "" : "s") + " match" + (shown === 1 ? "es" : "") : "";
    var pick = exact || (shown === 1 ? first : null);
    if (!pick && qt.length && shown > 0) {
      var ccs = {};
      index.forEach(function (e) { if (!e.li.hidden) ccs[e.cc] = 1; });
      if (Object.keys(ccs).length === 1) pick = first;
    }
    if (pick) show(pick); else answer.textContent = "";
  }
  box.hidden = false;
  q.addEventListener("input", update);
  if (q.value) update();
}());
