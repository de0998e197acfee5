export const settingsKey = "rea-settings";
