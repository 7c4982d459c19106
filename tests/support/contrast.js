// WCAG contrast of every visible text of a page, computed in the page (Playwright's
// page.evaluate): for every visible element with text of its own, its colour against the
// colour behind it (its ancestors' backgrounds composited until opaque). Large text (24 px,
// or 18.66 px bold) needs 3:1, the rest 4.5:1 (WCAG 2 AA). SVG text (the board's
// coordinates and move numbers) is measured against the shape drawn under it: the nearest
// earlier circle or rect of its SVG whose box holds the text's centre (a stone, the wood),
// its size in screen px.
() => {
  const parse = (c) => { const m = c.match(/[\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const over = (top, under) => { const a = top[3]; return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]); };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const background = (el) => { const layers = [];
    for (let e = el; e; e = e.parentElement) { const b = parse(getComputedStyle(e).backgroundColor);
      if (b[3] > 0) { layers.push(b); if (b[3] >= 1) break; } }
    let c = [255, 255, 255, 1]; for (const l of layers.reverse()) c = over(l, c); return c; };
  const under = (text) => { const t = text.getBBox(); const x = t.x + t.width / 2, y = t.y + t.height / 2;
    for (let e = text.previousElementSibling; e; e = e.previousElementSibling) {
      if (e.tagName !== "circle" && e.tagName !== "rect") continue;
      const fill = getComputedStyle(e).fill; if (!fill.startsWith("rgb")) continue;
      const b = e.getBBox(); if (x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height) return parse(fill); }
    return background(text.closest("svg")); };
  const out = [];
  // one measure for both kinds of text: the ratio, and the need by its size on screen
  const measure = (el, fg, bg, s, px, tag, cls) => {
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const large = px >= 24 || (Number(s.fontWeight) >= 700 && px >= 18.66);
    out.push({ text: el.textContent.trim().slice(0, 40), ratio: Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100,
      need: large ? 3 : 4.5, tag, cls });
  };
  for (const el of document.querySelectorAll("svg text")) {
    if (el.closest("[hidden]") || !el.getClientRects().length || !el.textContent.trim()) continue;
    const s = getComputedStyle(el);
    const bg = over(under(el), [255, 255, 255, 1]);
    const px = parseFloat(s.fontSize) * el.getScreenCTM().a;
    measure(el, over(parse(s.fill), bg), bg, s, px, "svg text", el.getAttribute("class") || "");
  }
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("svg") || el.closest("[hidden]")) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const s = getComputedStyle(el);
    if (s.visibility === "hidden" || Number(s.opacity) === 0) continue;
    const bg = background(el);
    measure(el, over(parse(s.color), bg), bg, s, parseFloat(s.fontSize), el.tagName, el.className);
  }
  return out;
}
