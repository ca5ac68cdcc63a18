import { noChange, nothing } from 'lit';
import { Directive, PartType, directive } from 'lit/directive.js';
import type { ElementPart, PartInfo } from 'lit/directive.js';

/**
 * Sets inline style properties through CSSOM (`style.setProperty`) on every render, the first included. Lit's
 * `styleMap` writes a `style` attribute on its first render, which a page whose Content-Security-Policy has no
 * `'unsafe-inline'` refuses (`style-src-attr`): bars would stay empty and the page would get a violation report.
 * Used as an element binding: `<div ${cssomStyle({ 'inline-size': '40%' })}>`.
 */
class CssomStyle extends Directive {
  #previous = new Set<string>();

  constructor(partInfo: PartInfo) {
    super(partInfo);
    if (partInfo.type !== PartType.ELEMENT) throw new Error('cssomStyle is an element binding: <div ${cssomStyle(…)}>');
  }

  render(_properties: Readonly<Record<string, string>>): typeof nothing {
    return nothing;
  }

  override update(part: ElementPart, [properties]: [Readonly<Record<string, string>>]): typeof noChange {
    const style = (part.element as HTMLElement).style;
    for (const name of this.#previous) if (!(name in properties)) style.removeProperty(name);
    for (const [name, value] of Object.entries(properties)) style.setProperty(name, value);
    this.#previous = new Set(Object.keys(properties));
    return noChange;
  }
}

/** Inline style properties (CSS names: `inline-size`, `--x`) set through CSSOM, never as a `style` attribute. */
export const cssomStyle = directive(CssomStyle);
