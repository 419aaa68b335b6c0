const FENCE_LINE = /^[ \t]*```[\w-]*[ \t]*$/gm;

/** The model's prose around its calls, without the code-fence lines it wrapped them in. */
export function cleanProse(text: string): string {
  return text
    .replace(FENCE_LINE, '')
    .replace(/\n[ \t]*(?:\n[ \t]*)+\n/g, '\n\n')
    .trim();
}
