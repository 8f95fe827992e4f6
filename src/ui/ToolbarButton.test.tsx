import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ToolbarButton } from "./ToolbarButton";

const html = (props: Parameters<typeof ToolbarButton>[0]) => renderToStaticMarkup(createElement(ToolbarButton, props));

describe("a toolbar button", () => {
  it("names its symbol, puts its shortcut in the tooltip and is never a submit by accident", () => {
    expect(html({ label: "Step back", shortcut: "←", control: "step-back", disabled: true, children: "◂" })).toBe(
      '<button disabled="" type="button" aria-label="Step back" title="Step back (←)" data-control="step-back">◂</button>',
    );
    expect(html({ title: "Play", shortcut: "Space", className: "play", children: "Play" })).toBe(
      '<button class="play" type="button" title="Play (Space)">Play</button>',
    );
    expect(html({ submit: true, testId: "bench-run", children: "Run benchmark" })).toBe(
      '<button type="submit" data-testid="bench-run">Run benchmark</button>',
    );
  });
});
