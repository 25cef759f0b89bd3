// wheelarch: what the visitor chose, remembered across pages (localStorage;
// a browser that refuses it just forgets): the platform, the driver and the
// Python.  The platform defaults to the one the browser runs on, when that
// is one the wheels are built for; a phone or a Mac gets no default.
var wheelarchPrefs = (function () {
  "use strict";
  var KEY = "wheelarch.";
  function get(k) {
    try { return window.localStorage.getItem(KEY + k) || ""; } catch (e) { return ""; }
  }
  function set(k, v) {
    try {
      if (v) window.localStorage.setItem(KEY + k, v);
      else window.localStorage.removeItem(KEY + k);
    } catch (e) { /* storage refused: the choice lasts this page */ }
  }
  // From the user agent: "linux-x86_64", "linux-aarch64", "windows-x86_64"
  // or "" (a phone, a Mac, anything else).  Windows on Arm is never
  // guessed: its browsers mostly say x64, so it is chosen by hand.
  function guess(nav) {
    nav = nav || navigator;
    var hint = nav.userAgentData && nav.userAgentData.platform || "";
    var ua = nav.userAgent || "", p = nav.platform || "";
    if (/Android|iPhone|iPad|Mobile/i.test(ua) || nav.userAgentData && nav.userAgentData.mobile) return "";
    if (/^Windows$/i.test(hint) || /Windows NT/.test(ua)) return "windows-x86_64";
    if (/^(Linux|Chrome OS)$/i.test(hint) || /Linux|X11/.test(ua)) {
      return /aarch64|arm64|armv8/i.test(ua + " " + p) ? "linux-aarch64" : "linux-x86_64";
    }
    return "";
  }
  // Only an id the wheels are built for: any page of the same origin can
  // write these keys, so a stored value is compared, never trusted.
  var PLATFORMS = ["linux-x86_64", "linux-aarch64", "windows-x86_64", "windows-arm64"];
  function platform() {
    var p = get("platform");
    return PLATFORMS.indexOf(p) >= 0 ? p : guess();
  }
  return { get: get, set: set, guess: guess, platform: platform };
}());
