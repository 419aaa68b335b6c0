import { useEffect, useState } from 'preact/hooks';

type Render = (text: string) => string;
let loading: Promise<Render> | undefined;

/** markdown-it is loaded the first time some text needs it: it is not part of the first paint. */
function renderer(): Promise<Render> {
  loading ??= import('./markdown-render').then((m) => m.renderMarkdown);
  return loading;
}

/** Markdown rendered (safely: see markdown-render.ts); the plain text until the renderer has loaded. */
export function Markdown({ text, label }: { text: string; label?: string }) {
  const [html, setHtml] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    void renderer().then((render) => live && setHtml(render(text)));
    return () => {
      live = false;
    };
  }, [text]);
  if (html === undefined)
    return (
      <div class="markdown plain" aria-label={label}>
        {text}
      </div>
    );
  return <div class="markdown" aria-label={label} dangerouslySetInnerHTML={{ __html: html }} />;
}
