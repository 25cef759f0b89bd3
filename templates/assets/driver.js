// wheelarch: the driver rules the GPU pages (gpu.js) and the home filter
// share: reading a typed driver, and picking a driver table's row for it.
// They compute nothing the feed does not publish: each platform's "by_driver"
// table (api/v1/gpu/<device>.json, the same decision as `wheelarch query --driver`)
// lists, newest first, the lowest driver for each answer; the answer for a
// driver is the first row whose floor it reaches.
var wheelarchDriver = (function () {
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
  // floor), or undefined (not a driver version).
  function pick(table, s) {
    var d = parseTyped(s);
    if (!d) return undefined;
    for (var i = 0; i < table.length; i++) {
      var f = parse(table[i].min_driver);
      if (f && atLeast(d, f)) return table[i];
    }
    return null;
  }
  return { parse: parse, parseTyped: parseTyped, pick: pick };
}());
