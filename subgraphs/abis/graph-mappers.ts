/** GraphQL type → the value its resolvers receive as parent (npm run codegen; paths from this folder). */
export const graphMappers = {
  AbisRequest: '../../generated/prisma/client.js#AbisRequest',
};
