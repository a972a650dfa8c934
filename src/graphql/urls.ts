/** The URL builders live in the domain, so services (webhook payloads) build the same URLs as the schema. */
export { fileUrl, placeholderAvatarUrl, sourceLogoUrl } from '../domain/urls';
