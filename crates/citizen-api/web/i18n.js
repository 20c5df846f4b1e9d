// Texts and the language (docs/web-app.md, "Languages"): Czech by default, else the first of the
// browser's languages we have; a choice is remembered in localStorage.

export const LANGUAGES = ["cs", "en", "uk"];
const STORED = "citizen-app.language";

function stored() {
  try {
    return localStorage.getItem(STORED);
  } catch {
    return null; // storage off (private mode): the browser's choice then
  }
}

export function chooseLanguage() {
  const remembered = stored();
  if (LANGUAGES.includes(remembered)) return remembered;
  for (const tag of navigator.languages ?? []) {
    const primary = tag.toLowerCase().split("-")[0];
    if (LANGUAGES.includes(primary)) return primary;
  }
  return "cs";
}

/// The texts of `all` ({cs: {...}, en: {...}, uk: {...}}) in the chosen language.
export function createI18n(all) {
  const listeners = [];
  const i18n = {
    language: chooseLanguage(),
    /// The text of a dotted key; `{name}` is replaced from `values`.
    t(key, values = {}) {
      const text = key.split(".").reduce((node, part) => node?.[part], all[i18n.language]) ?? key;
      return typeof text === "string"
        ? text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""))
        : key;
    },
    set(language) {
      i18n.language = LANGUAGES.includes(language) ? language : "cs";
      try {
        localStorage.setItem(STORED, i18n.language);
      } catch {
        // not remembered when storage is off
      }
      i18n.apply(document);
      for (const listener of listeners) listener();
    },
    /// Calls `listener` after every change of language.
    onChange(listener) {
      listeners.push(listener);
    },
    /// Translates `data-i18n` (text) and `data-i18n-label` (aria-label) under `root`.
    apply(root) {
      if (root === document) {
        document.documentElement.lang = i18n.language;
      }
      for (const element of root.querySelectorAll("[data-i18n]")) {
        element.textContent = i18n.t(element.dataset.i18n);
      }
      for (const element of root.querySelectorAll("[data-i18n-label]")) {
        element.setAttribute("aria-label", i18n.t(element.dataset.i18nLabel));
      }
      for (const element of root.querySelectorAll("[data-i18n-placeholder]")) {
        element.setAttribute("placeholder", i18n.t(element.dataset.i18nPlaceholder));
      }
    },
  };
  return i18n;
}
