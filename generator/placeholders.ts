// Every stage: `{name}` placeholders, as tools.yaml writes them in call paths, dialogs and
// link templates, read one way by the rules (which refuse unknown or empty ones), the spec
// check and the emitters. A placeholder is the text between braces with no brace or
// space in it; `{}` is one with an empty name, so that a rule can refuse it by name.
const PLACEHOLDER = /\{([^{}\s]*)\}/g;

/** The placeholder names in a text, in order, repeats kept. */
export function placeholderNames(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
}

/** The text with every placeholder replaced by what `replace` makes of its name. */
export function replacePlaceholders(text: string, replace: (name: string) => string): string {
  return text.replace(PLACEHOLDER, (_, name: string) => replace(name));
}
