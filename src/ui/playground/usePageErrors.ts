import { useCallback, useState } from "react";

export interface PageErrors {
  /** What the last failed action said (an import, an export, a share), or null. */
  actionError: string | null;
  setActionError(message: string | null): void;
  /** Fields whose entry is refused, by id, with the reason. */
  fieldErrors: Record<string, string>;
  /** A field's entry is refused (reason) or fine again (null). */
  onFieldError(id: string, reason: string | null): void;
  /** A new state was loaded: what the last failed action and refused entries said goes. */
  clear(): void;
}

/** The errors of the user's own actions and entries; the page shows them with the session's and the runs'. */
export function usePageErrors(): PageErrors {
  const [actionError, setActionError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const onFieldError = useCallback((id: string, reason: string | null) => {
    setFieldErrors((errors) => {
      if ((errors[id] ?? null) === reason) return errors;
      const next = { ...errors };
      if (reason === null) delete next[id];
      else next[id] = reason;
      return next;
    });
  }, []);
  const clear = useCallback(() => {
    setFieldErrors({});
    setActionError(null);
  }, []);
  return { actionError, setActionError, fieldErrors, onFieldError, clear };
}

/** Every error on the page, in the order it shows them: startup, save, run, conventions, action, fields. */
export function pageErrorLines(...sources: (string | null | undefined | Record<string, string>)[]): string[] {
  return sources
    .flatMap((source) => (source !== null && typeof source === "object" ? Object.values(source) : [source]))
    .filter((e): e is string => Boolean(e));
}
