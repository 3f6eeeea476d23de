// The public API as the tools call it (the trace demo, the images' check): JSON in and out over
// HTTPS with the stack's certificate (`dispatcher`), a store's bearer token and extra headers. An
// answer outside 2xx throws with its status and body; `onAnswer(method, path, status)` sees the others.
export function httpsApi(baseUrl, dispatcher, onAnswer = () => {}) {
  return async (method, path, { token, headers = {}, body } = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      dispatcher,
      headers: { ...(token && { authorization: `Bearer ${token}` }), ...(body && { 'content-type': 'application/json' }), ...headers },
      body: body && JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    onAnswer(method, path, response.status);
    return text ? JSON.parse(text) : undefined;
  };
}
