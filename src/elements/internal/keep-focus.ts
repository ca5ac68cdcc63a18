/**
 * Focus for keyboard users when the control they used goes away (a removed row, a dismissed list): if focus has
 * fallen out of `root` to `<body>`, it moves to the first of `targets` that exists. Focus elsewhere on the page is
 * left alone.
 */
export function keepFocus(root: ShadowRoot, ...targets: (Element | null | undefined)[]): void {
  if (root.activeElement || document.activeElement !== document.body) return;
  (targets.find(Boolean) as HTMLElement | undefined)?.focus();
}
