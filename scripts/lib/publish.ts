import { Client } from "./client";
import { makeImage } from "./images";

let image: Buffer | undefined;

/** The create-post form as a browser sends it. */
export function postForm(title: string, content: string, file: Buffer, { type = "image/jpeg", tags = ["Ostatné"] } = {}): FormData {
  const form = new FormData();
  form.append("title", title);
  form.append("content", content);
  for (const tag of tags) form.append("tags", tag);
  form.append("image", new Blob([new Uint8Array(file)], { type }), type === "image/png" ? "obrazok.png" : "obrazok.jpg");
  return form;
}

/** Publish an article over HTTP as `client` (with more of the form's fields, e.g. its period); returns its id, or null when the server did not acknowledge it. */
export async function publish(client: Client, title: string, tags = ["Ostatné"], content = `Text článku ${title}`, fields: Record<string, string> = {}): Promise<string | null> {
  image ??= await makeImage("jpeg", 480, 300);
  const form = postForm(title, content, image, { tags });
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await client.request("/create-post", { method: "POST", body: form, headers: { Origin: client.base } });
  await response.arrayBuffer();
  const location = response.status === 303 ? response.headers.get("location") : null;
  return location?.match(/^\/posts\/([\w-]+)$/)?.[1] ?? null;
}

/** The revision an article's edit form is based on now (its hidden `baseRevision`), as `client` opens the form. */
export async function editBase(client: Client, id: string): Promise<string> {
  const { doc } = await client.get(`/posts/${id}?edit`);
  return doc.querySelector('input[name="baseRevision"]')?.getAttribute("value") ?? "";
}

/** Save an edit as the edit form does: opened first, so it is based on the current revision. */
export async function saveEdit(client: Client, id: string, fields: Record<string, string>, path = `/posts/${id}`) {
  return client.post(path, { intent: "save", baseRevision: await editBase(client, id), ...fields });
}
