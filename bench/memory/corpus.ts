// The memory benches' text: segments and questions drawn from one fixed vocabulary, the same on
// every machine and in every run.

/** A generator with a fixed start (mulberry32): the same corpus and queries on every machine. */
function random(start: number): () => number {
  let a = start >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const rand = random(20261126);
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'en', 'ar', 'po', 'di', 'zu', 'fe'];
const VOCABULARY = Array.from({ length: 20_000 }, (_, i) => {
  let word = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word;
});

/** Word frequencies as in prose: a few words everywhere, most rare (Zipf-like). */
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * rand() ** 3)];

/** `min` to `max` words. */
export const sentence = (min: number, max: number) =>
  Array.from({ length: min + Math.floor(rand() * (max - min)) }, word).join(' ');
