import { Children, Fragment, type ReactNode } from 'react';

/**
 * A trail of steps in plain markup, drawn as antd's Breadcrumb looks (layout.css: page-breadcrumb):
 * antd's own brings its Dropdown, Menu and Trigger into the first load of every page that shows one.
 * Each child is a step; the last is the page itself.
 */
export function Breadcrumb({ children }: { children: ReactNode }) {
  const steps = Children.toArray(children);
  return (
    <nav className="page-breadcrumb" aria-label="面包屑">
      <ol>
        {steps.map((step, i) => (
          <Fragment key={typeof step === 'object' && 'key' in step ? step.key : `${i}:${String(step)}`}>
            {i > 0 && (
              <li className="page-breadcrumb__separator" aria-hidden="true">
                /
              </li>
            )}
            <li aria-current={i === steps.length - 1 ? 'page' : undefined}>{step}</li>
          </Fragment>
        ))}
      </ol>
    </nav>
  );
}
