export interface PlaygroundSwitch {
  /** `process.env.NODE_ENV` of the running app. */
  nodeEnv: string | undefined;
  /** `graphql.config.playgroundAlways`: serve the playground in production too. */
  playgroundAlways?: boolean;
}

/**
 * Whether the GraphQL endpoint serves the playground, as Strapi decides it: on in every
 * environment but production (development, staging, an unset NODE_ENV), where it shows the
 * schema to anyone unless the project asks for it with `playgroundAlways`.
 */
export function playgroundEnabled({ nodeEnv, playgroundAlways = false }: PlaygroundSwitch): boolean {
  return playgroundAlways || nodeEnv !== 'production';
}
