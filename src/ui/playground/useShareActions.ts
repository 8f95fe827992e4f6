import { useCallback, useMemo, useRef, useState } from "react";
import { rowInFocus } from "../../compute/player/focusRow";
import { playerAddress } from "../../compute/player/playerLink";
import { addressWith, linkSize, sizeText } from "../../compute/playground/persistence";
import type { StateCodec } from "../../compute/playground/stateCodec";
import type { PlaygroundState } from "../../io/playgroundState";
import { copyText } from "./files/download";
import { saveCaseFile } from "./files/saveCaseFile";
import type { LinkStatus } from "./PlaygroundToolbar";

const TOO_LARGE_FOR_LINK: LinkStatus = {
  text: "Too large for a link: the address holds no data; a case file carries it",
  offerCase: true,
};

export interface ShareActions {
  /** What the last share action said; while none has, that the batch is too large for a link, if it is. */
  linkStatus: LinkStatus | null;
  copyLink(): void;
  openInPlayer(): void;
  saveCase(): void;
  /** A status line of another action (an export saved), in the same place. */
  onStatus(text: string): void;
}

/** The address of an encoded state here: this page's query (view, …) and the state in the fragment. */
function addressText(encoded: string): string {
  const { search, hash } = addressWith(encoded, window.location.search);
  return `${search}${hash}`;
}

/**
 * Sharing the committed state: Copy link (saying when the link is long to paste or too large to
 * open, and offering the case file then), Open in player, and the case file itself. Encoding runs
 * in the codec worker; a failed action says why through `onError`.
 */
export function useShareActions(
  codec: StateCodec,
  committed: PlaygroundState,
  linkTooLong: boolean,
  onError: (message: string) => void,
): ShareActions {
  const [linkStatus, setLinkStatus] = useState<LinkStatus | null>(null);
  // The actions read the newest state when called, so they stay the same functions across edits
  // (the toolbar that holds them is memoised: an edit does not render it again).
  const latest = useRef({ codec, committed, onError });
  latest.current = { codec, committed, onError };

  const copyLink = useCallback(() => {
    const { codec, committed } = latest.current;
    codec
      .encode(committed)
      .then(async (encoded) => {
        const url = `${window.location.origin}${window.location.pathname}${addressText(encoded)}`;
        const size = linkSize(url.length);
        if (size === "too large") {
          setLinkStatus({
            text: `No link copied: this batch makes a ${sizeText(url.length)} link, more than a browser opens. A case file carries it`,
            offerCase: true,
          });
          return;
        }
        const copied = await copyText(url);
        const done = copied ? "Link copied" : "The clipboard is not available: copy the address bar";
        setLinkStatus(
          size === "long"
            ? {
                text: `${done} (${sizeText(url.length)}, long to paste; a case file carries the same batch)`,
                offerCase: true,
              }
            : { text: done, offerCase: false },
        );
      })
      .catch(() => {});
  }, []);
  const onStatus = useCallback((text: string) => setLinkStatus({ text, offerCase: false }), []);
  const saveCase = useCallback(() => {
    const { codec, committed, onError } = latest.current;
    saveCaseFile(codec, committed)
      .then((status) => setLinkStatus({ text: status, offerCase: false }))
      .catch((reason: unknown) => onError(`Case export: ${reason instanceof Error ? reason.message : String(reason)}`));
  }, []);

  const openInPlayer = useCallback(() => {
    const { codec, committed, onError } = latest.current;
    // A batch larger than the player replays goes as the row in focus (the player says which).
    const { state: sent, focus } = rowInFocus(committed);
    codec
      .encode(sent)
      .then((encoded) => {
        if (linkSize(encoded.length) === "too large") {
          onError(
            `Open in player: this batch makes a ${sizeText(encoded.length)} link, more than a browser opens; the player is made for teaching sizes (a few rows of up to 4096 tokens).`,
          );
          return;
        }
        window.location.assign(`${window.location.pathname}${playerAddress(sent, encoded, focus)}`);
      })
      .catch(() => {});
  }, []);

  const shown = linkStatus ?? (linkTooLong ? TOO_LARGE_FOR_LINK : null);
  return useMemo(
    () => ({ linkStatus: shown, copyLink, openInPlayer, saveCase, onStatus }),
    [shown, copyLink, openInPlayer, saveCase, onStatus],
  );
}
