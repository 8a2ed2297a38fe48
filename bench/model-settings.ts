/** Saves the oss user's model settings on a running server: an OpenAI-compatible model at `baseUrl`. */
export async function configureModel(serverUrl: string, baseUrl: string): Promise<void> {
  const saved = await fetch(`${serverUrl}/api/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ llm_model: 'openai/fake-model', llm_base_url: baseUrl, llm_api_key: 'fake-key' }),
  });
  if (!saved.ok) throw new Error(`the model settings were refused: ${await saved.text()}`);
}
