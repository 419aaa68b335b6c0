/** Prisma's Json input type wants plain JSON; our records (DTOs, traces, plans) are. */
export function toJson<T>(value: T): object {
  return value as unknown as object;
}
