// Channel names shared by both pages.
export const CHANNELS = {
  CLICKED: "page:clicked",
  SAVE: "settings:save",
};
