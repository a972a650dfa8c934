/** Absolute URLs of the assets the API serves itself (resolvers pass the request origin, services `publicBaseUrl()`). */
export const fileUrl = (baseUrl: string, fileId: string): string => `${baseUrl}/files/${fileId}`;

export const sourceLogoUrl = (baseUrl: string, slug: string): string => `${baseUrl}/assets/sources/${slug}.svg`;

/** The generated placeholder avatar (initials) returned when none was uploaded. */
export const placeholderAvatarUrl = (baseUrl: string, name: string): string =>
  `${baseUrl}/avatars/placeholder.svg?name=${encodeURIComponent(name)}`;
