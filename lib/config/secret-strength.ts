/**
 * How much guessing a configured secret or token withstands, judged from its text: 40 × `a` is 40 characters long and
 * guessed at the first try. The estimate is the text's own character entropy (Shannon, from how often each character
 * occurs) times its length, and a text that repeats itself (`abcdabcd…`) counts as its period only. A value from
 * `openssl rand -base64 32` or `-hex 32` scores 150 bits or more; even
 * `-hex 16` (128 random bits in 32 characters, estimated at 115 on average) stays above the line in all but about one
 * value in a million.
 */
export const MIN_SECRET_BITS = 88;

/** The shortest p such that the text is its first p characters over and over (the whole length when it is not). */
function periodOf(text: string): number {
  for (let period = 1; period <= text.length / 2; period += 1) {
    let repeats = true;
    for (let index = period; index < text.length && repeats; index += 1) repeats = text[index] === text[index - period];
    if (repeats) return period;
  }
  return text.length;
}

/** The estimated entropy of the text in bits (see MIN_SECRET_BITS). */
export function estimatedBits(text: string): number {
  const characters = [...text.slice(0, periodOf(text))];
  const counts = new Map<string, number>();
  for (const character of characters) counts.set(character, (counts.get(character) ?? 0) + 1);
  let perCharacter = 0;
  for (const count of counts.values()) {
    const share = count / characters.length;
    perCharacter -= share * Math.log2(share);
  }
  return perCharacter * characters.length;
}

/** Why the text is too easy to guess for a secret, or undefined when it is not. */
export function guessableReason(text: string): string | undefined {
  const bits = Math.floor(estimatedBits(text));
  if (bits >= MIN_SECRET_BITS) return undefined;
  return `is too easy to guess (about ${bits} bits of entropy in its characters, at least ${MIN_SECRET_BITS} needed): use a random value, e.g. \`openssl rand -base64 32\``;
}
