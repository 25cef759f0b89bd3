// wheelarch: a Copy button on every install command (.answer-cmd pre).
// It copies exactly the command's text, nothing around it; without this
// script the command is plain selectable text.  Commands a script writes
// later get their buttons from wheelarchCopy.add(element).
var wheelarchCopy = (function () {
  "use strict";
  function add(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll(".answer-cmd pre"), function (pre) {
      if (pre.querySelector("button.copy") || !pre.querySelector("code")) return;
      var b = document.createElement("button");
      b.type = "button";
      b.className = "copy";
      b.textContent = "Copy";
      var first = pre.querySelector("code").textContent.split(" ")[0];
      b.setAttribute("aria-label", "Copy the " + (first === "uv" || first === "pip" ? first + " " : "") + "command");
      pre.insertBefore(b, pre.firstChild);
      tokens(pre.querySelector("code"));
    });
  }
  // A narrow screen wraps a command between its arguments, never inside a
  // URL or after an option's "--": each argument in an unbreakable box.
  // The text stays what it was (the boxes hold it; the spaces stay between
  // them), so what is copied or selected is the command.
  function tokens(code) {
    var text = code.textContent;
    if (code.getAttribute("data-tokens") === text) return;
    code.textContent = "";
    text.split(" ").forEach(function (t, i) {
      if (i) code.appendChild(document.createTextNode(" "));
      var s = document.createElement("span");
      s.className = "tok";
      s.textContent = t;
      code.appendChild(s);
    });
    code.setAttribute("data-tokens", text);
  }
  function fallback(text) {
    // no Clipboard API (an http:// page): a hidden field's selection
    var t = document.createElement("textarea");
    t.value = text;
    t.setAttribute("readonly", "");
    t.style.position = "fixed";
    t.style.opacity = "0";
    document.body.appendChild(t);
    t.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(t);
    return ok;
  }
  // What happened, said where a screen reader hears it too.
  var status = null;
  function said(b, ok) {
    if (!status) {
      status = document.createElement("span");
      status.className = "sr";
      status.setAttribute("role", "status");
      document.body.appendChild(status);
    }
    status.textContent = ok ? "Copied: " + b.parentNode.querySelector("code").textContent : "Not copied: select the command and copy it";
    b.textContent = ok ? "Copied" : "Select it";
    setTimeout(function () { b.textContent = "Copy"; }, 1600);
  }
  document.addEventListener("click", function (e) {
    var b = e.target && e.target.closest ? e.target.closest("button.copy") : null;
    if (!b) return;
    var code = b.parentNode.querySelector("code");
    var text = code ? code.textContent : "";
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { said(b, true); }, function () { said(b, fallback(text)); });
    } else {
      said(b, fallback(text));
      b.focus(); /* the hidden field took the focus */
    }
  });
  add(document);
  return { add: add, tokens: tokens };
}());
