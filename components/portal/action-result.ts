/** What a portal server action answers; the pages hand their actions to these components, which only know this shape. */
export type ActionResult<T = undefined> = { ok: true; data: T } | { ok: false; message: string; fieldErrors?: Record<string, string> };
