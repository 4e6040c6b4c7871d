// A helper with more parameters than the walk passes lambdas through: the
// arguments past the first sixteen are still bound, so the agent index in
// the last two keeps its thread dependence inside the inlined helper.
__device__ void reward_step(float *rewards, const float *penalty, const float *bonus,
                            const int *types, const int *alive, float a0, float a1, float a2,
                            float a3, float a4, float a5, float a6, float a7, float a8,
                            int num_agents, int env, int agent, int agent_idx) {
  if (agent < num_agents) {
    rewards[agent_idx] = 0.0f;
    if (alive[agent_idx])
      rewards[agent_idx] += penalty[agent_idx] + a0 * a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8;
    if (types[agent] == 1)
      rewards[agent_idx] += bonus[env];
  }
}

__global__ void env_step(float *rewards, const float *penalty, const float *bonus,
                         const int *types, const int *alive, int num_agents) {
  const int env = blockIdx.x;
  const int agent = threadIdx.x;
  const int agent_idx = env * num_agents + agent;
  reward_step(rewards, penalty, bonus, types, alive, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f,
              8.0f, 9.0f, num_agents, env, agent, agent_idx);
}

// expect: SELECT block_uniform FROM access WHERE line = 9 AND base = 'rewards' => 0
// expect: SELECT count(*) FROM access WHERE base = 'rewards' AND block_uniform = 1 => 0
