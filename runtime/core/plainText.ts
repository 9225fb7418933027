// Text that steers a call (a deployment target, a branch, a secret's name, a registry's
// address) must mean to Woodpecker, the forge and a step's shell what it means to the
// person reading it. A control character, an invisible one (zero-width, bidirectional
// overrides, a byte order mark), a separator other than the plain space, or whitespace
// at either end does not: "production\n" deploys to production unquoted in a script while
// a rule on "production" does not see it. Such arguments are refused, not cleaned: a
// silent repair would act on a value nobody wrote.

// Cc controls, Cf format characters, Zl/Zp separators, Co private use, Cn unassigned,
// the characters Unicode says to show as nothing (Default_Ignorable_Code_Point: Hangul
// fillers U+3164, U+115F, U+FFA0, the grapheme joiner U+034F, variation selectors such
// as U+FE0F, which are letters or marks, not Cf), and every space separator but U+0020.
const UNREADABLE =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}]|(?! )\p{Zs}/u;
/** The same invisible characters, for comparableName to drop. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}]/gu;

/** What makes the text unreadable as written, or undefined when it reads as it is. */
export function unreadableIn(text: string): string | undefined {
  let position = 0;
  for (const char of text) {
    position++;
    if (UNREADABLE.test(char)) {
      const code = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      return `holds U+${code} (${kindOf(char)}) at position ${position}`;
    }
  }
  if (/^\s|\s$/u.test(text)) return 'starts or ends with whitespace';
  return undefined;
}

function kindOf(char: string): string {
  if (/\p{Cc}/u.test(char)) return 'a control character';
  if (/\p{Zs}|\p{Zl}|\p{Zp}/u.test(char)) return 'a space or line separator other than " "';
  return 'an invisible character';
}

/**
 * A name as an operator's rule compares it, for values this server did not check itself
 * (what Woodpecker stored) as much as for rules and arguments: compatibility forms folded
 * (a full-width "ｐｒｏｄ" is "prod"), invisible characters dropped, other spaces made
 * plain, surrounding whitespace trimmed, letter case ignored. Rules only add caution, so
 * matching more spellings can only ask or refuse more often, never less.
 */
export function comparableName(text: string): string {
  return text
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(/\p{Zs}/gu, ' ')
    .trim()
    .toLowerCase();
}
