import MarkdownIt from 'markdown-it';

/**
 * Markdown as HTML that cannot carry markup of its own: raw HTML in the text is escaped, links
 * with a script or data scheme are refused (markdown-it's `validateLink`), and images are not
 * rendered, so showing a result never makes the page load anything from another origin.
 */
const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
md.disable('image');
const defaultLink = md.renderer.rules.link_open;
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet('rel', 'noreferrer noopener');
  tokens[idx].attrSet('target', '_blank');
  return defaultLink ? defaultLink(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
};

export function renderMarkdown(text: string): string {
  return md.render(text);
}
