/** The label after the last one used: A … Z, AA, AB, … (a label stays with its variation's statistics). */
export function nextLabel(used: string[]): string {
  const toNumber = (label: string) => [...label].reduce((n, c) => n * 26 + (c.charCodeAt(0) - 64), 0);
  let n = used.reduce((m, l) => Math.max(m, toNumber(l)), 0) + 1;
  let label = '';
  while (n > 0) {
    label = String.fromCharCode(65 + ((n - 1) % 26)) + label;
    n = Math.floor((n - 1) / 26);
  }
  return label;
}
