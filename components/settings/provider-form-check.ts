/** Checks of the provider form, before anything is sent (the server checks the same again). Pure. */

/** The form's values, as typed. */
export interface ProviderFormValues {
  kind: "openai" | "anthropic";
  name: string;
  baseUrl: string;
  model: string;
  apiKey: string;
}

/** What is wrong, by field; empty when the form can be saved. */
export function checkProviderForm(values: ProviderFormValues): Partial<Record<keyof ProviderFormValues, string>> {
  const errors: Partial<Record<keyof ProviderFormValues, string>> = {};
  const name = values.name.trim();
  if (name === "") errors.name = "A name is required.";
  else if (!/^[A-Za-z0-9_.-]{1,100}$/.test(name)) errors.name = "Use letters, digits, “_”, “.” or “-” (at most 100).";
  else if (name === "scripted" || name === "demo") errors.name = `“${name}” always means the scripted demo provider; choose another name.`;
  const baseUrl = values.baseUrl.trim();
  if (baseUrl !== "") {
    let url: URL | null = null;
    try {
      url = new URL(baseUrl);
    } catch {
      url = null;
    }
    if (url === null) errors.baseUrl = "Not a URL; expected something like https://api.example.com/v1.";
    else if (url.protocol !== "http:" && url.protocol !== "https:") errors.baseUrl = `Only http:// and https:// base URLs are allowed; found ${url.protocol}//.`;
  }
  if (values.model.length > 200) errors.model = "At most 200 characters.";
  if (values.apiKey.length > 1000) errors.apiKey = "At most 1000 characters.";
  return errors;
}
