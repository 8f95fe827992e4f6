import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { STRATEGIES } from "../../names/strategies";
import { GLOSSARY } from "./glossary";
import { StrategyTerm } from "./StrategyTerm";
import { Term } from "./Term";

describe("Term", () => {
  it("is a button naming its word, described by a tooltip holding the glossary's definition and link", () => {
    const html = renderToStaticMarkup(<Term word="Carry">the carry</Term>);
    const described = /aria-describedby="([^"]+)"/.exec(html)?.[1];
    expect(html).toMatch(/^<span class="glossary-term"><button type="button" class="term-trigger" data-term="Carry"/);
    expect(described).toBeTruthy();
    expect(html).toContain(`role="tooltip" id="${described}"`);
    expect(html).toContain('href="?view=glossary#carry"');
    expect(html).toContain(">the carry</button>");
  });

  it("draws the definition as text: markup in the glossary is escaped, never parsed", () => {
    const html = renderToStaticMarkup(<Term word="Tolerance">t</Term>);
    const definition = GLOSSARY.byWord.get("Tolerance")?.definition ?? "";
    expect(definition).toContain("≤");
    const escaped = definition
      .replaceAll("&", "&amp;")
      .replaceAll("<", "&lt;")
      .replaceAll(">", "&gt;")
      .replaceAll("'", "&#x27;")
      .replaceAll('"', "&quot;");
    expect(html).toContain(`<span class="term-definition">${escaped}</span>`);
    // The Markdown's marks are gone, and no element of its own is drawn inside the definition.
    expect(/<span class="term-definition">([^<]*)<\/span>/.exec(html)?.[1]).toBe(escaped);
  });

  it("takes the id a control already names, and a ? without words", () => {
    const html = renderToStaticMarkup(<Term word="Estimator" tipId="pg-estimator-help" />);
    expect(html).toContain('aria-describedby="pg-estimator-help"');
    expect(html).toContain('id="pg-estimator-help"');
    expect(html).toContain('aria-label="What “Estimator” means"');
    expect(html).toContain('class="glossary-term glossary-term-icon"');
  });

  it("shows a word the glossary does not have as plain words", () => {
    expect(renderToStaticMarkup(<Term word="No such word">plain</Term>)).toBe("plain");
  });

  it("names every strategy by its glossary word", () => {
    for (const strategy of STRATEGIES) {
      const html = renderToStaticMarkup(<StrategyTerm strategy={strategy} />);
      expect(html, strategy).toMatch(/data-term="[^"]+"/);
      expect(html, strategy).toContain('role="tooltip"');
    }
  });
});
