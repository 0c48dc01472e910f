/** A refusal in a GraphQL answer: its code and message. */
export interface Refusal {
  code: string;
  message: string;
}

/**
 * What a GraphQL answer was refused with: a top-level error (the caller's
 * token or role, a document GraphQL itself refuses, a failed query), else
 * the first user error of a mutation payload (the input or a rule).
 */
export function refusalOf(answer: any): Refusal | undefined {
  const error = answer?.errors?.[0];
  if (error) return { code: error.extensions?.code, message: error.message };
  for (const value of Object.values(answer?.data ?? {})) {
    const [first] = (value as { userErrors?: Refusal[] } | null)?.userErrors ?? [];
    if (first) return { code: first.code, message: first.message };
  }
  return undefined;
}

/** The code of `refusalOf`. */
export const refusalCode = (answer: any): string | undefined => refusalOf(answer)?.code;
