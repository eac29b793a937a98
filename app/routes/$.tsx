import { data } from "@remix-run/node";

/** Any other address: the root error boundary's Slovak 404 (without echoing the address back). */
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
