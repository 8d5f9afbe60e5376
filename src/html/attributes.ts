/**
 * A start tag's attributes as the scan hands them on: name/value pairs side by side
 * (`[name, value, name, value…]`), names in lower case, the first of each, values as written. A flat
 * list rather than an object: a tag has a few, and an object keyed by names sliced from the page
 * cost about twice as much to fill (each name made a property key; bench/NOTES.md).
 */
export type Attributes = readonly string[];

/** The value of the attribute named `name` (lower case), or undefined when the tag has none. */
export function attributeOf(attributes: Attributes, name: string): string | undefined {
  for (let i = 0; i < attributes.length; i += 2) if (attributes[i] === name) return attributes[i + 1];
  return undefined;
}

export const NO_ATTRIBUTES: Attributes = [];
