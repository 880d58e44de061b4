/** What an operator server action answers; the pages hand their actions to these components, which only know this shape. */
export type OperatorActionResult<T = undefined> = { ok: true; data: T } | { ok: false; message: string; fieldErrors?: Record<string, string> };
