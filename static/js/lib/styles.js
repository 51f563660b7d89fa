/* styles.js: a screen's own stylesheet, added to the page when its script loads. A module
 * of its own: the pages that need none do not load it (dom.js stays small). */

/** Add the stylesheet at `href` to the page, once. */
export function stylesheet(href) {
  if (document.querySelector(`link[rel=stylesheet][href="${href}"]`)) return;
  const css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = href;
  document.head.appendChild(css);
}
