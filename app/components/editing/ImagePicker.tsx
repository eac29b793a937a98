import { useEffect, useRef, useState } from "react";
import { imageUrl } from "~/lib/images";
import { IMAGE_MAX_BYTES, IMAGE_TYPES, MESSAGES } from "~/lib/rules";

type Props = { pendingImage: string; invalid: boolean; errorId: string; label?: string };

type Upload =
  | { state: "idle" }
  | { state: "uploading"; percent: number }
  | { state: "done"; key: string; sentAhead: boolean }
  | { state: "error"; message: string };

/**
 * The article's image. Without JavaScript the file goes with the form. With
 * it, the file is checked at once, then sent ahead to /create-post/image with
 * a progress bar and a cancel button; the form then carries only its key.
 * An image kept from a refused form (`pendingImage`) need not be picked again.
 * The edit form's `label` says the image is a new one, and optional.
 */
/** The edit forms' label: the article keeps its image unless a new one is picked. */
export const NEW_IMAGE_LABEL = "Nový obrázok (nepovinné; JPEG alebo PNG, menej ako 2\u00a0MB)";

export function ImagePicker({ pendingImage, invalid, errorId, label = "Obrázok (JPEG alebo PNG, menej ako 2\u00a0MB)" }: Props) {
  const [upload, setUpload] = useState<Upload>(pendingImage ? { state: "done", key: pendingImage, sentAhead: false } : { state: "idle" });
  const request = useRef<XMLHttpRequest | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => () => request.current?.abort(), []);

  function send(file: File) {
    if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return setUpload({ state: "error", message: MESSAGES.imageType });
    if (file.size >= IMAGE_MAX_BYTES) return setUpload({ state: "error", message: MESSAGES.imageSize });
    const xhr = new XMLHttpRequest();
    request.current = xhr;
    const body = new FormData();
    body.append("image", file);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) setUpload({ state: "uploading", percent: Math.round((event.loaded / event.total) * 100) });
    };
    xhr.onload = () => {
      const answer = JSON.parse(xhr.responseText || "{}") as { key?: string; error?: string };
      setUpload(answer.key ? { state: "done", key: answer.key, sentAhead: true } : { state: "error", message: answer.error ?? MESSAGES.uploadFailed });
    };
    xhr.onerror = () => setUpload({ state: "error", message: MESSAGES.uploadFailed });
    xhr.open("POST", "/create-post/image");
    xhr.send(body);
    setUpload({ state: "uploading", percent: 0 });
  }

  function reset() {
    request.current?.abort();
    request.current = null;
    if (input.current) input.current.value = "";
    setUpload({ state: "idle" });
  }

  const message = upload.state === "error" ? upload.message : null;
  return (
    <div className={`field image-picker${invalid ? " invalid" : ""}`}>
      <label htmlFor="field-image">{label}</label>
      {upload.state === "done" && (
        <div className="image-preview">
          <input type="hidden" name="pendingImage" value={upload.key} />
          <img src={imageUrl(upload.key, 400, "jpg")} alt="Vybraný obrázok" width="200" height="125" />
          <p>Obrázok je nahraný. Môžete vybrať iný:</p>
        </div>
      )}
      <input
        ref={input}
        id="field-image"
        // Once the image is sent ahead, the form must not send the file again.
        name={upload.state === "done" && upload.sentAhead ? undefined : "image"}
        type="file"
        accept="image/jpeg,image/png"
        aria-invalid={invalid || Boolean(message) || undefined}
        aria-describedby={[invalid ? errorId : null, message ? "image-message" : null].filter(Boolean).join(" ") || undefined}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          if (file) send(file);
        }}
      />
      {upload.state === "uploading" && (
        <div className="upload-progress">
          <progress max={100} value={upload.percent} aria-label="Nahrávanie obrázka">
            {upload.percent} %
          </progress>
          <span>{upload.percent} %</span>
          <button type="button" className="button button-secondary" onClick={reset}>
            Zrušiť nahrávanie
          </button>
        </div>
      )}
      {message && (
        <p className="field-message" id="image-message" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
