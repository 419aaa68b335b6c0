const PATTERNS: [RegExp, string][] = [
  [/(authorization["']?\s*[:=]\s*["']?)(bearer|basic)\s+[^\s"',}]+/gi, '$1$2 ***'],
  [/\b(bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 ***'],
  [/\b(sk|ak|ac|pk|rk)-[A-Za-z0-9_-]{8,}/g, '$1-***'],
  [/(\/\/[^/:@\s]*:)[^@\s/]+@/g, '$1***@'],
  [/((?:api[_-]?key|password|passwd|secret|token)["']?\s*[:=]\s*["']?)[^\s"',}&]+/gi, '$1***'],
];
/** Matches wherever one of the patterns could: a line without any of these needs no pattern run. */
const MAY_MATCH = /authorization|bearer|(?:sk|ak|ac|pk|rk)-|\/\/|api[_-]?key|passw|secret|token/i;

/**
 * Central redaction: masks well-known secret shapes and every configured secret value.
 * Used by the logger and by every error body that leaves a service.
 */
export class Redactor {
  private secrets: string[];

  constructor(secrets: string[] = []) {
    this.secrets = [...new Set(secrets.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  }

  addSecrets(values: string[]): void {
    this.secrets = new Redactor([...this.secrets, ...values]).secrets;
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join('***');
    if (!MAY_MATCH.test(out)) return out;
    for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
    return out;
  }
}
