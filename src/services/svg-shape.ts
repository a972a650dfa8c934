/**
 * The shape of an uploaded SVG, measured by one linear scan of its text before anything parses it. jsdom and DOMPurify
 * (src/services/files.service.ts) take time that grows with the nesting as well as the size: a 35 KB logo.svg of 5,000
 * nested `<g>` held the API process for 13 s, 30,000 (210 KB, under the 250 KB upload limit) for 79 s, one element
 * with 20,000 attributes for 4.5 s. An SVG past any of these limits is refused (422 on the upload's field) unparsed:
 *
 * - `depth` 64: elements open inside one another. Logos from Illustrator, Figma and Inkscape are rarely deeper than 15
 *   (layers, groups, clip groups, gradient stops).
 * - `nodes` 5,000: elements, comments, CDATA sections and processing instructions (each costs the parser about what an
 *   element does). A logo is a few hundred, rarely a few thousand; traced artwork past 5,000 is no logo.
 * - `attributes` 20,000 in all (4 per node on average: Inkscape writes `id`, `style`, `d` and its own attributes on every
 *   path), and `elementAttributes` 256 on one element (an Inkscape root or `sodipodi:namedview` carries about 30).
 *
 * Within these limits sanitising takes about a second at worst on a loaded machine, and runs outside any transaction.
 */
export const SVG_LIMITS = { depth: 64, nodes: 5000, attributes: 20000, elementAttributes: 256 } as const;

/** What the scan counted: the deepest nesting, markup nodes, attributes in all and the most on one element. */
export interface SvgShape {
  depth: number;
  nodes: number;
  attributes: number;
  elementAttributes: number;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** Where a tag's name or an attribute's name ends: white space, `/`, `>`, `=`. */
const endsName = (c: number): boolean => isSpace(c) || c === 0x2f || c === 0x3e || c === 0x3d;

/**
 * Counts the markup of `text` in one pass (each character is looked at a bounded number of times): comments (`<!--` to
 * `-->`), CDATA sections (to `]]>`), processing instructions (`<?` to `?>`) and other declarations such as a doctype
 * (to the next `>`) are one node each and nothing inside them counts; a start tag's attributes are read with their
 * quoted values (which may hold `>`, `<` or the other quote); `<x/>` opens nothing; an end tag closes one level.
 *
 * It errs towards counting more than an XML parser would build, never less: jsdom stops at the first error of a
 * document that is not well-formed, and on a well-formed one this scan reads the markup as XML does. A doctype's
 * internal subset is read as text after its first `>` (a doctype left after the prolog is stripped fails the parse).
 * An unterminated construct runs to the end of the text.
 */
export function svgShape(text: string): SvgShape {
  const shape: SvgShape = { depth: 0, nodes: 0, attributes: 0, elementAttributes: 0 };
  const n = text.length;
  let open = 0;
  let at = 0;
  const skipTo = (from: number, end: string): number => {
    const found = text.indexOf(end, from);
    return found < 0 ? n : found + end.length;
  };
  for (;;) {
    const lt = text.indexOf('<', at);
    if (lt < 0) break;
    const next = text.charCodeAt(lt + 1);
    if (next === 0x21 /* ! */) {
      shape.nodes++;
      if (text.startsWith('<!--', lt)) at = skipTo(lt + 4, '-->');
      else if (text.startsWith('<![CDATA[', lt)) at = skipTo(lt + 9, ']]>');
      else at = skipTo(lt + 2, '>');
      continue;
    }
    if (next === 0x3f /* ? */) {
      shape.nodes++;
      at = skipTo(lt + 2, '?>');
      continue;
    }
    if (next === 0x2f /* / */) {
      open = Math.max(0, open - 1);
      at = skipTo(lt + 2, '>');
      continue;
    }
    if (lt + 1 >= n || endsName(next) || next === 0x3c) {
      // `<` followed by white space, `>`, `=` or another `<`: no tag (and not well-formed); read on after it.
      at = lt + 1;
      continue;
    }
    // A start tag: its name, then attributes until `>` or `/>`.
    shape.nodes++;
    let i = lt + 1;
    while (i < n && !endsName(text.charCodeAt(i))) i++;
    let attributes = 0;
    let selfClosing = false;
    for (;;) {
      while (i < n && isSpace(text.charCodeAt(i))) i++;
      if (i >= n) break;
      const c = text.charCodeAt(i);
      if (c === 0x3e /* > */) {
        i++;
        break;
      }
      if (c === 0x2f /* / */) {
        i++;
        if (text.charCodeAt(i) === 0x3e) {
          selfClosing = true;
          i++;
          break;
        }
        continue;
      }
      if (c === 0x3d /* = without a name */) {
        i++;
      } else {
        attributes++;
        while (i < n && !endsName(text.charCodeAt(i))) i++;
        while (i < n && isSpace(text.charCodeAt(i))) i++;
        if (text.charCodeAt(i) !== 0x3d) continue;
        i++;
      }
      // A value: quoted (to the same quote, whatever it holds), or (not XML) up to white space or `>`.
      while (i < n && isSpace(text.charCodeAt(i))) i++;
      const q = text.charCodeAt(i);
      if (q === 0x22 || q === 0x27) {
        const end = text.indexOf(q === 0x22 ? '"' : "'", i + 1);
        i = end < 0 ? n : end + 1;
      } else {
        while (i < n && !isSpace(text.charCodeAt(i)) && text.charCodeAt(i) !== 0x3e) i++;
      }
    }
    shape.attributes += attributes;
    shape.elementAttributes = Math.max(shape.elementAttributes, attributes);
    shape.depth = Math.max(shape.depth, open + 1);
    if (!selfClosing) open++;
    at = i;
  }
  return shape;
}

/**
 * The first limit of `SVG_LIMITS` the SVG text breaks, as the rest of a sentence starting with the upload's field
 * ("must not nest SVG elements more than 64 deep"), or null when it keeps within all of them.
 */
export function svgLimitBreach(text: string): string | null {
  const shape = svgShape(text);
  if (shape.depth > SVG_LIMITS.depth) return `must not nest SVG elements more than ${SVG_LIMITS.depth} deep`;
  if (shape.nodes > SVG_LIMITS.nodes) {
    return `must not have more than ${SVG_LIMITS.nodes} SVG elements, comments, CDATA sections and processing instructions`;
  }
  if (shape.elementAttributes > SVG_LIMITS.elementAttributes) {
    return `must not have more than ${SVG_LIMITS.elementAttributes} attributes on one SVG element`;
  }
  if (shape.attributes > SVG_LIMITS.attributes) return `must not have more than ${SVG_LIMITS.attributes} SVG attributes`;
  return null;
}
