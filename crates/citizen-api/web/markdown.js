// A small Markdown renderer for announcements (spec 4.6): paragraphs, line breaks, "- " and
// "1. " lists, **strong**, *emphasis*, `code` and [links](url). It builds DOM nodes, never
// HTML: any markup in the text stays text. Links keep only http, https, mailto, tel and relative
// targets; any other link is its text alone.

const SAFE_SCHEMES = ["http:", "https:", "mailto:", "tel:"];

export function safeHref(target) {
  const href = target.trim();
  if (!href) return null;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(href);
  if (!scheme) {
    // Relative ("/x", "x", "#x", "?x"), but not protocol-relative ("//host"), which leaves the site.
    return href.startsWith("//") || href.startsWith("\\") ? null : href;
  }
  return SAFE_SCHEMES.includes(`${scheme[1].toLowerCase()}:`) ? href : null;
}

const INLINE = /(\*\*([^*]+)\*\*|\*([^*]+)\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\))/;

function inline(text, parent) {
  let rest = text;
  while (rest) {
    const match = INLINE.exec(rest);
    if (!match) {
      parent.append(rest);
      break;
    }
    if (match.index) parent.append(rest.slice(0, match.index));
    const [whole, , strong, em, code, label, target] = match;
    if (strong !== undefined) {
      const node = document.createElement("strong");
      inline(strong, node);
      parent.append(node);
    } else if (em !== undefined) {
      const node = document.createElement("em");
      inline(em, node);
      parent.append(node);
    } else if (code !== undefined) {
      const node = document.createElement("code");
      node.textContent = code;
      parent.append(node);
    } else {
      const href = safeHref(target);
      if (href) {
        const link = document.createElement("a");
        link.href = href;
        if (/^https?:/i.test(href)) link.rel = "noopener noreferrer";
        inline(label, link);
        parent.append(link);
      } else {
        inline(label, parent);
      }
    }
    rest = rest.slice(match.index + whole.length);
  }
}

/// The nodes of `text` as a DocumentFragment.
export function renderMarkdown(text) {
  const fragment = document.createDocumentFragment();
  const blocks = String(text).replace(/\r\n?/g, "\n").split(/\n{2,}/);
  for (const block of blocks) {
    const lines = block.split("\n").filter((line) => line.trim());
    if (!lines.length) continue;
    const bullet = lines.every((line) => /^\s*[-*+]\s+/.test(line));
    const numbered = lines.every((line) => /^\s*\d+[.)]\s+/.test(line));
    if (bullet || numbered) {
      const list = document.createElement(bullet ? "ul" : "ol");
      for (const line of lines) {
        const item = document.createElement("li");
        inline(line.replace(/^\s*([-*+]|\d+[.)])\s+/, ""), item);
        list.append(item);
      }
      fragment.append(list);
      continue;
    }
    const paragraph = document.createElement("p");
    lines.forEach((line, index) => {
      if (index) paragraph.append(document.createElement("br"));
      inline(line.replace(/^#{1,6}\s+/, ""), paragraph);
    });
    fragment.append(paragraph);
  }
  return fragment;
}
