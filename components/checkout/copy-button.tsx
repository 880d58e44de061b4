'use client';

import { useState } from 'react';

export function CopyButton({ text, label, copiedLabel, testId }: { text: string; label: string; copiedLabel: string; testId: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard API unavailable (older browsers, insecure origins): select-and-copy fallback.
      const field = document.createElement('textarea');
      field.value = text;
      document.body.appendChild(field);
      field.select();
      document.execCommand('copy');
      field.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  }
  return (
    <button type="button" className="copy" onClick={copy} aria-label={label} data-testid={testId}>
      <span aria-live="polite">{copied ? copiedLabel : label}</span>
    </button>
  );
}
