import * as models from './index';

/** The model classes Sequelize registers: everything `index.ts` exports, so a new model is listed once. */
export const ALL_MODELS = Object.values(models);
