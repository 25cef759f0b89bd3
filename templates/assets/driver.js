// wheelarch: re-judges a GPU page's recommendation for the visitor's driver.
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

(function () {
  "use strict";
  var form = document.getElementById("driverbox");
  var input = document.getElementById("driver");
  var out = document.getElementById("driver-answer");
  var dataEl = document.getElementById("drivers");
  if (!form || !input || !out || !dataEl) return;
  var tables = JSON.parse(dataEl.textContent);
  var names = { "linux-x86_64": "Linux x86_64", "linux-aarch64": "Linux aarch64", "windows-x86_64": "Windows x86_64" };
  function line(platform, row) {
    var p = document.createElement("p");
    var b = document.createElement("strong");
    b.textContent = names[platform] || platform;
    p.appendChild(b);
    if (row === null) {
      p.appendChild(document.createTextNode(": no build in the data loads with this driver; update the driver."));
    } else {
      p.appendChild(document.createTextNode(": " + (row.symbol || "") + " " + row.label + ", " + row.provenance + " "));
      var c = document.createElement("code");
      c.textContent = row.commands.pip;
      p.appendChild(c);
    }
    return p;
  }
  function update() {
    out.textContent = "";
    if (!input.value.trim()) return;
    var shown = 0;
    Object.keys(tables).sort().forEach(function (platform) {
      var row = wheelarchDriver.pick(tables[platform], input.value);
      if (row === undefined) return;
      out.appendChild(line(platform, row));
      shown++;
    });
    if (!shown) out.textContent = "Type a driver version such as 570.86.15.";
  }
  form.hidden = false;
  input.addEventListener("input", update);
}());
