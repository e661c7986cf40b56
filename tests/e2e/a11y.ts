import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, type TestInfo } from "@playwright/test";

/**
 * axe over the page as it stands, failing on serious and critical findings. Every finding
 * (moderate and minor too) is attached to the test for review when a TestInfo is given.
 *
 * It first waits for the document's title: our pages compute it in an async generateMetadata,
 * which Next streams after the page body. Right after a client-side navigation the old page's
 * <title> is gone and the new one is still on its way, so axe would report "document-title" on
 * a page that is about to be correct (a CI run on PostgreSQL did exactly that).
 */
export async function expectNoSeriousA11yViolations(
  page: Page,
  report?: { testInfo: TestInfo; name: string },
) {
  await expect(page).toHaveTitle(/\S/);
  // label-content-name-mismatch is one of axe's experimental rules, off by default; Lighthouse
  // runs it (a control whose visible text is not in its accessible name cost /audit its score),
  // so the e2e suite does too.
  const { violations } = await new AxeBuilder({ page })
    .options({ rules: { "label-content-name-mismatch": { enabled: true } } })
    .analyze();
  if (report) {
    const file = report.testInfo.outputPath(`axe-${report.name}.json`);
    fs.writeFileSync(file, JSON.stringify(violations, null, 2));
    await report.testInfo.attach(`axe-${report.name}`, {
      path: file,
      contentType: "application/json",
    });
  }
  expect(
    violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
  ).toEqual([]);
}
