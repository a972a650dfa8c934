/* global document, window */
// A minimal MCP Apps host for test/mcp/scan-widget.test.ts, bundled with esbuild: the extension's own host side
// (`AppBridge` of @modelcontextprotocol/ext-apps) talks to the View in a sandboxed frame. The View's HTML comes from
// the server's resources/read; the frame gets the CSP the extension prescribes (its restrictive default, widened only
// by the resource's declared `_meta.ui.csp`), injected as a meta element the way web hosts' sandbox proxies do. The
// View's tool calls go to `window.forwardToolCall`, which the test binds to the real MCP endpoint.
import { AppBridge, PostMessageTransport, RESOURCE_MIME_TYPE, getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';

/** The extension's CSP for a View: its default when nothing is declared, declared origins added where they apply. */
function cspFor(csp = {}) {
  const resources = (csp.resourceDomains || []).join(' ');
  const connect = (csp.connectDomains || []).join(' ');
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `connect-src ${connect || "'none'"}`,
    `frame-src ${(csp.frameDomains || []).join(' ') || "'none'"}`,
    `base-uri ${(csp.baseUriDomains || []).join(' ') || "'self'"}`,
  ]
    .map((d) => d.trim())
    .join('; ');
}

/** What a host reads from the server's tool and resource, by the extension's own helpers and constants. */
window.describeApp = (tool, content) => ({ resourceUri: getToolUiResourceUri(tool) ?? null, isAppResource: content.mimeType === RESOURCE_MIME_TYPE });

/** Renders the View for one tool call and hands it the call's input and result. */
window.mountView = async ({ html, csp, toolInput, toolResult, hostContext }) => {
  const frame = document.createElement('iframe');
  frame.id = 'view';
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('title', 'MCP App');
  frame.style.cssText = 'width:720px;height:600px;border:1px solid #d0d5db;border-radius:12px;display:block';
  document.getElementById('views').append(frame);

  const bridge = new AppBridge(null, { name: 'reviewgrid-test-host', version: '1.0.0' }, { serverTools: {}, logging: {} }, { hostContext });
  bridge.oncalltool = (params) => window.forwardToolCall(params);
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${Math.ceil(height)}px`;
  };
  const initialized = new Promise((resolve) => {
    bridge.oninitialized = resolve;
  });
  // Listening before the document loads: the View's ui/initialize is its first message.
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = html.replace(/<head>/i, `<head><meta http-equiv="Content-Security-Policy" content="${cspFor(csp)}">`);
  await initialized;
  await bridge.sendToolInput({ arguments: toolInput });
  await bridge.sendToolResult(toolResult);
  window.bridge = bridge;
  return true;
};
