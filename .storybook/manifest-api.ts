/**
 * The public API of one element as `custom-elements.json` records it, in the sections its docs page shows: what the
 * Storybook docs table is built from (`argTypesFromManifest`) and what `test/e2e/storybook-docs.spec.ts` checks the
 * built page against (`publicApi`), so the two cannot disagree.
 *
 * Storybook's own manifest reader keys every row by its bare name, so an attribute hides the property of the same
 * name (`value`, `accept`) and a part hides an attribute (`share`); it drops methods and the unnamed default slot,
 * and lists `#private` and protected fields. This one keeps each section whole and only the public members.
 */

interface Typed {
  text?: string;
}

/** One row of a manifest section: an attribute, a member, an event, a slot, a part or a custom property. */
interface ManifestItem {
  name: string;
  kind?: string;
  description?: string;
  summary?: string;
  type?: Typed;
  default?: string;
  privacy?: string;
  static?: boolean;
  parameters?: { name: string; type?: Typed; optional?: boolean; default?: string }[];
  return?: { type?: Typed };
}

interface ManifestDeclaration {
  tagName?: string;
  summary?: string;
  description?: string;
  attributes?: ManifestItem[];
  members?: ManifestItem[];
  events?: ManifestItem[];
  slots?: ManifestItem[];
  cssParts?: ManifestItem[];
  cssProperties?: ManifestItem[];
}

export interface Manifest {
  modules: { declarations?: ManifestDeclaration[] }[];
}

/** The docs page's sections, in the order they appear. */
export const SECTIONS = [
  'attributes',
  'properties',
  'methods',
  'events',
  'slots',
  'css parts',
  'css custom properties',
] as const;
export type Section = (typeof SECTIONS)[number];

/** One public item of an element, as its docs row shows it. */
export interface ApiItem {
  section: Section;
  /** The name as written in a page: `mime-type`, `mimeType`, `addFiles()`, `(default)` for the unnamed slot. */
  name: string;
  description: string;
  type?: string;
  default?: string;
}

// Static fields are Lit and platform plumbing (`formAssociated`, `shadowRootOptions`), not something a page sets.
const isPublic = (m: ManifestItem): boolean =>
  !m.static && !m.name.startsWith('#') && (m.privacy ?? 'public') === 'public';

function signature(m: ManifestItem): string {
  const params = (m.parameters ?? []).map(
    (p) => `${p.name}${p.optional || p.default !== undefined ? '?' : ''}: ${p.type?.text ?? 'unknown'}`,
  );
  return `(${params.join(', ')}) => ${m.return?.type?.text ?? 'void'}`;
}

function declaration(manifest: Manifest, tagName: string): ManifestDeclaration {
  const decl = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === tagName);
  if (!decl) throw new Error(`${tagName} is not in custom-elements.json (run npm run cem)`);
  return decl;
}

/** The element's summary, then its description: the text at the top of its docs page. */
export function elementDescription(manifest: Manifest, tagName: string): string {
  const decl = declaration(manifest, tagName);
  return [decl.summary, decl.description].filter(Boolean).join('\n\n');
}

/** Every public attribute, property, method, event, slot, CSS part and CSS custom property of `tagName`. */
export function publicApi(manifest: Manifest, tagName: string): ApiItem[] {
  const decl = declaration(manifest, tagName);
  const item = (section: Section, m: ManifestItem, name = m.name, type = m.type?.text): ApiItem => ({
    section,
    name,
    description: m.description ?? m.summary ?? '',
    ...(type !== undefined && { type }),
    ...(m.default !== undefined && { default: m.default }),
  });
  const members = (decl.members ?? []).filter(isPublic);
  return [
    ...(decl.attributes ?? []).map((m) => item('attributes', m)),
    ...members.filter((m) => m.kind === 'field').map((m) => item('properties', m)),
    ...members.filter((m) => m.kind === 'method').map((m) => item('methods', m, `${m.name}()`, signature(m))),
    ...(decl.events ?? []).map((m) => item('events', m)),
    ...(decl.slots ?? []).map((m) => item('slots', m, m.name || '(default)')),
    ...(decl.cssParts ?? []).map((m) => item('css parts', m)),
    ...(decl.cssProperties ?? []).map((m) => item('css custom properties', m)),
  ];
}

/** One docs-table row of Storybook's ArgTypes (the fields its table reads). */
interface ArgTypeRow {
  name: string;
  description: string;
  control: { disable: true };
  table: { category: Section; type?: { summary: string }; defaultValue?: { summary: string } };
}

/**
 * Storybook's `parameters.docs.extractArgTypes` for the elements: one row per public item, grouped by section.
 * Properties keep their bare name as key, so a story's `args` (`mimeType`) lands on its property row; every other
 * row is keyed by section and name, so no row hides another.
 */
export function argTypesFromManifest(manifest: Manifest, tagName: string): Record<string, ArgTypeRow> {
  const rows: Record<string, ArgTypeRow> = {};
  for (const item of publicApi(manifest, tagName)) {
    const key = item.section === 'properties' ? item.name : `${item.section}:${item.name}`;
    rows[key] = {
      name: item.name,
      description: item.description,
      control: { disable: true },
      table: {
        category: item.section,
        ...(item.type !== undefined && { type: { summary: item.type } }),
        ...(item.default !== undefined && { defaultValue: { summary: item.default } }),
      },
    };
  }
  return rows;
}
