import { memo, type ReactNode, useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { glossaryEntry, glossaryHref } from "./glossary";
import "./glossary.css";

export interface TermProps {
  /** A word of docs/glossary.md, exactly as its heading keys it (parseGlossary's `word`). */
  word: string;
  /** The words shown; without them the trigger is a small "?" after a control's label. */
  children?: ReactNode;
  /** The tooltip's id, where a control already names it in its aria-describedby. */
  tipId?: string;
}

// The pointer may cross the small gap between the word and its definition without closing it.
const CLOSE_AFTER_MS = 150;
const MARGIN = 8;

/**
 * A word with its glossary definition where it stands: the definition opens on hover, on keyboard
 * focus and on tap (a click pins it open), closes on Escape, and ends with a link to the word on
 * the glossary page. The trigger is a button carrying `data-term` (the contract with scripts); the
 * definition is `role="tooltip"`, named by the button's aria-describedby, and is drawn as text.
 * It is placed fixed under the word (clamped into the window), so a table's scroll box never clips it,
 * and it lives at the end of the page's body, so the text around the word (a step's caption, a tour
 * stop's sentence) reads as it is shown: a script's `textContent` never holds a definition.
 * Memoised: its props are a word and (mostly) plain text, and a page holds dozens, each with a
 * portal and a dozen hooks, that its panels' renders would otherwise render again on every edit.
 */
export const Term = memo(function Term({ word, children, tipId }: TermProps) {
  const entry = glossaryEntry(word);
  const ownId = useId();
  const id = tipId ?? `term-${ownId}`;
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [pinned, setPinned] = useState(false);
  const [place, setPlace] = useState<{ left: number; top: number } | null>(null);
  const wrap = useRef<HTMLSpanElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const tip = useRef<HTMLSpanElement>(null);
  const closing = useRef<ReturnType<typeof setTimeout> | null>(null);
  const open = hovered || focused || pinned;
  const close = useCallback(() => {
    setHovered(false);
    setFocused(false);
    setPinned(false);
  }, []);

  const cancelClose = useCallback(() => {
    if (closing.current !== null) clearTimeout(closing.current);
    closing.current = null;
  }, []);
  useEffect(() => cancelClose, [cancelClose]);

  useLayoutEffect(() => {
    if (!open) {
      setPlace(null);
      return;
    }
    const placeTip = () => {
      const button = trigger.current;
      const box = tip.current;
      if (!button || !box) return;
      const at = button.getBoundingClientRect();
      const { offsetWidth: width, offsetHeight: height } = box;
      const left = Math.max(MARGIN, Math.min(at.left, window.innerWidth - width - MARGIN));
      const below = at.bottom + 4;
      const above = at.top - height - 4;
      setPlace({ left, top: below + height > window.innerHeight - MARGIN && above > MARGIN ? above : below });
    };
    placeTip();
    window.addEventListener("scroll", placeTip, true);
    window.addEventListener("resize", placeTip);
    return () => {
      window.removeEventListener("scroll", placeTip, true);
      window.removeEventListener("resize", placeTip);
    };
  }, [open]);

  // Escape closes an open definition first, wherever focus is (it may be open by hover alone), and
  // goes no further: in the player's tour, Escape would otherwise also close the tour under it.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.stopPropagation();
      close();
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [open, close]);

  if (!entry) return <>{children ?? null}</>;

  // Rendered inline only where there is no document (the server renderer of the unit tests).
  const definition = (
    <span
      ref={tip}
      role="tooltip"
      id={id}
      className="term-tip"
      hidden={!open}
      style={place ? { left: place.left, top: place.top } : undefined}
    >
      <span className="term-definition">{entry.definition}</span>{" "}
      <a href={glossaryHref(word)} className="term-more">
        More in the glossary
      </a>
    </span>
  );
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the word and its definition are one hover and focus area (the pointer may move onto the glossary link); the button is the control.
    <span
      ref={wrap}
      className={children ? "glossary-term" : "glossary-term glossary-term-icon"}
      onMouseEnter={() => {
        cancelClose();
        setHovered(true);
      }}
      onMouseLeave={() => {
        cancelClose();
        closing.current = setTimeout(() => setHovered(false), CLOSE_AFTER_MS);
      }}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        const next = event.relatedTarget as Node | null;
        if (!wrap.current?.contains(next) && !tip.current?.contains(next)) {
          setFocused(false);
          setPinned(false);
        }
      }}
    >
      <button
        ref={trigger}
        type="button"
        className="term-trigger"
        data-term={word}
        aria-describedby={id}
        aria-expanded={open}
        aria-label={children ? undefined : `What “${word}” means`}
        onClick={(event) => {
          event.preventDefault();
          event.stopPropagation();
          // A click (or a tap, which also hovers and focuses) pins the definition open; the next one closes it.
          if (pinned) close();
          else setPinned(true);
        }}
      >
        {children ?? <span aria-hidden="true">?</span>}
      </button>
      {typeof document === "undefined" ? definition : createPortal(definition, document.body)}
    </span>
  );
});
