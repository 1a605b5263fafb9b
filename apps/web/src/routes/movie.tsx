import { MovieFlow } from '../features/movie/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** movie (issue 15): cinema tickets, city → film → cinema → show → seats → pay. */
export function Component() {
  return (
    <RequireMember title="电影票">
      <MovieFlow />
    </RequireMember>
  );
}
