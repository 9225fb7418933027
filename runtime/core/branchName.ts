// A branch as git names it (git check-ref-format --branch). A spelling git refuses is
// not a branch, but a forge's router may clean it into one: "./main" and "main/" can
// reach main while an operator's rule on main does not see them.

/** Why git would not take this as a branch name, or undefined when it would. */
export function branchNameProblem(name: string): string | undefined {
  if (name === '@') return 'is "@", which git reserves';
  if (name.startsWith('-')) return 'starts with "-"';
  if (name.startsWith('/') || name.endsWith('/')) return 'starts or ends with "/"';
  if (name.includes('//')) return 'holds "//"';
  if (name.includes('..')) return 'holds ".."';
  if (name.includes('@{')) return 'holds "@{"';
  if (name.endsWith('.')) return 'ends with "."';
  const bad = /[\s~^:?*[\\]/u.exec(name);
  if (bad) return `holds ${JSON.stringify(bad[0])}, which git does not allow in a branch name`;
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return 'has a part that starts with "."';
    if (part.endsWith('.lock')) return 'has a part that ends with ".lock"';
  }
  return undefined;
}
